"""Per-call time of normc's PyTorch op on small inputs, where the call
overhead shows, in one run against the same kernel launched through the C++
API (normc::Norm::forward, through the extension with nothing around it)
and against torch.nn.functional.rms_norm.

    python bench/python_overhead.py [--device cpu|cuda] [--calls 2000]

Prints the median per-call time of each way, and the op's overhead: the op
minus the bare C++ call (argument checks, the output allocation). In eager
mode without autograd the op calls the kernel directly; with inputs that
require grad it goes through the torch.library dispatcher and records the
autograd node (the "with autograd" column). rows = 0 launches nothing: the
op's own cost alone.
"""
import argparse
import statistics
import time

import torch
import torch.nn.functional as F

import normc
from normc import _runtime


def per_call_us(fn, calls, sync):
    for _ in range(min(calls, 200)):  # warm up: compile, tune, caches
        fn()
    sync()
    samples = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    device = torch.device(args.device)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)

    norm = normc.Norm("llama_rmsnorm")
    kernel = _runtime.kernel(norm.key, device)
    stream = torch.cuda.current_stream().cuda_stream if device.type == "cuda" else 0
    print(f"normc {normc.__version__}, torch {torch.__version__}, device {args.device}")
    print(f"{'rows x d':>12} {'normc op':>10} {'with autograd':>14} {'C++ API':>10} "
          f"{'F.rms_norm':>11} {'op overhead':>12} {'op / rms_norm':>14}")
    for rows, d in [(0, 64), (1, 64), (1, 4096), (8, 4096)]:
        x = torch.randn(rows, d, device=device).bfloat16()
        w = torch.ones(d, device=device, dtype=torch.bfloat16)
        y = torch.empty_like(x)
        x_grad = x.clone().requires_grad_()

        def direct():
            kernel.forward(rows, d, x.data_ptr(), 0, 0, 0, w.data_ptr(), 0,
                           y.data_ptr(), 0, 0, 0, stream)

        op = per_call_us(lambda: norm(x, gamma=w), args.calls, sync)
        grad = per_call_us(lambda: norm(x_grad, gamma=w), args.calls, sync)
        # Nothing to launch at rows = 0: the op returns before the C++ call.
        api = per_call_us(direct, args.calls, sync) if rows else 0.0
        ref = per_call_us(lambda: F.rms_norm(x, (d,), w, 1e-6), args.calls, sync)
        print(f"{f'{rows} x {d}':>12} {op:>8.1f}us {grad:>12.1f}us {api:>8.1f}us {ref:>9.1f}us "
              f"{op - api:>10.1f}us {op / ref:>13.2f}x")


if __name__ == "__main__":
    main()
