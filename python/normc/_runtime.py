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
# Runtimes per (device, reproducible), kernels per (spec key, device).
_runtimes: Dict[Tuple[str, int, bool], "_normc.Runtime"] = {}
_kernels: Dict[Tuple[str, str, int], "_normc.Kernel"] = {}
# key -> (TOML text, file name, reproducible)
_texts: Dict[str, Tuple[str, str, bool]] = {}


def _device_key(device: torch.device) -> Tuple[str, int]:
    if device.type == "cuda":
        index = device.index if device.index is not None else torch.cuda.current_device()
        return "cuda", index
    return device.type, 0


def runtime(device: torch.device, reproducible: bool = False) -> "_normc.Runtime":
    """The device's runtime; with reproducible, one that compiles every spec
    in reproducible mode (without, $NORMC_REPRODUCIBLE decides)."""
    dkey = _device_key(device) + (reproducible,)
    with _lock:
        rt = _runtimes.get(dkey)
        if rt is None:
            rt = _normc.Runtime(dkey[0], cuda_device=dkey[1], cpu_header_dir=_HEADERS,
                                reproducible=1 if reproducible else -1)
            _runtimes[dkey] = rt
        return rt


def remember(key: str, text: str, file_name: str, reproducible: bool,
             cpu_kernel: "_normc.Kernel") -> None:
    """Keeps a spec's text, so kernel() can load it on other devices, and
    its kernel on the CPU runtime that parsed it."""
    with _lock:
        _texts.setdefault(key, (text, file_name, reproducible))
        _kernels.setdefault((key, "cpu", 0), cpu_kernel)


def kernel(key: str, device: torch.device) -> "_normc.Kernel":
    dkey = _device_key(device)
    k = _kernels.get((key,) + dkey)
    if k is not None:
        return k
    text, file_name, reproducible = _texts[key]
    k = runtime(device, reproducible).load_spec(text, file_name)
    with _lock:
        return _kernels.setdefault((key,) + dkey, k)


def cache_dir() -> str:
    """The folder of normc's caches: $NORMC_CACHE_DIR, else
    $XDG_CACHE_HOME/normc, else ~/.cache/normc (docs/caching.md)."""
    return _normc.cache_dir()


def clear_cache() -> int:
    """Removes normc's cached kernels, tuning results and CPU objects from
    cache_dir(), and nothing else there; returns how many files it removed.
    Kernels this process has loaded stay loaded; the next process to need
    one compiles it again."""
    return _normc.clear_cache()
