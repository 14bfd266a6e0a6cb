"""One normc runtime per device, and each loaded spec's kernels on it.

The runtimes find the CPU device's headers in the installed package, so
nothing of the build tree is needed at run time.
"""
import threading
from pathlib import Path
from typing import Dict, Tuple

import torch

from . import _normc

PACKAGE_DIR = Path(__file__).resolve().parent
_HEADERS = str(PACKAGE_DIR / "include")

_lock = threading.Lock()
_runtimes: Dict[Tuple[str, int], "_normc.Runtime"] = {}
_kernels: Dict[Tuple[str, str, int], "_normc.Kernel"] = {}
_texts: Dict[str, Tuple[str, str]] = {}  # key -> (TOML text, file name)


def _device_key(device: torch.device) -> Tuple[str, int]:
    if device.type == "cuda":
        index = device.index if device.index is not None else torch.cuda.current_device()
        return "cuda", index
    return device.type, 0


def runtime(device: torch.device) -> "_normc.Runtime":
    dkey = _device_key(device)
    with _lock:
        rt = _runtimes.get(dkey)
        if rt is None:
            rt = _normc.Runtime(dkey[0], cuda_device=dkey[1], cpu_header_dir=_HEADERS)
            _runtimes[dkey] = rt
        return rt


def remember(key: str, text: str, file_name: str, cpu_kernel: "_normc.Kernel") -> None:
    """Keeps a spec's text, so kernel() can load it on other devices, and
    its kernel on the CPU runtime that parsed it."""
    with _lock:
        _texts.setdefault(key, (text, file_name))
        _kernels.setdefault((key, "cpu", 0), cpu_kernel)


def kernel(key: str, device: torch.device) -> "_normc.Kernel":
    dkey = _device_key(device)
    k = _kernels.get((key,) + dkey)
    if k is not None:
        return k
    text, file_name = _texts[key]
    k = runtime(device).load_spec(text, file_name)
    with _lock:
        return _kernels.setdefault((key,) + dkey, k)
