"""normc: normalization kernels compiled from a spec, for PyTorch.

    import normc
    norm = normc.Norm("specs/llama_rmsnorm.toml")  # a path, TOML text or a shipped name
    y = norm(x, gamma=weight)                      # CPU or CUDA tensors, autograd

See docs/python.md.
"""
from ._normc import Error
from ._norm import Norm, shipped_specs, spec_path
from ._runtime import cache_dir, clear_cache
from . import nn

__all__ = ["Error", "Norm", "cache_dir", "clear_cache", "nn", "shipped_specs",
           "spec_path"]
__version__ = "0.1.0"
