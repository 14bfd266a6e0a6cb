"""How far dgamma is from float64 when the rows are computed in bf16 or f16.

RMSNorm computed entirely in the low-precision type (Liger's casting mode
"none"), three ways on the same rounded x, gamma and dy: PyTorch's own
autograd in that type, normc with accumulate = that type (the sums over rows
in it too), and normc with accumulate_rows = "f32" on top. Each is graded
against PyTorch's float64 autograd of the same formula: the largest
|dgamma - ref| as a fraction of the largest |ref|. Runs on the CPU device.

    .venv/bin/python bench/dgamma_accuracy.py [--rows 4096] [--d 256 1024 4096]
"""
import argparse

import torch

import normc

SPEC = """name = "rows_{acc}"
[statistics]
center = false
[epsilon]
value = 1e-6
[dtypes]
input = "{t}"
output = "{t}"
params = "{t}"
accumulate = "{t}"
{rows}
"""


# The sums over rows in the accumulate type, then in f32.
ROWS = ("", 'accumulate_rows = "f32"')


def rmsnorm(x, w, eps=1e-6):
    return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


def error(v, ref):
    return ((v.double() - ref).abs().max() / ref.abs().max()).item()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=4096)
    p.add_argument("--d", type=int, nargs="+", default=[256, 1024, 4096])
    args = p.parse_args()
    print(f"rows = {args.rows}; max |dgamma - float64| / max |float64|")
    print(f"{'dtype':6} {'d':>6} {'torch':>10} {'normc':>10} "
          f"{'normc rows f32':>15}")
    torch.manual_seed(0)
    for dtype, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
        norms = [normc.Norm(SPEC.format(t=name, acc=name, rows=rows))
                 for rows in ROWS]
        for d in args.d:
            x = torch.randn(args.rows, d).to(dtype)
            w = (1 + 0.1 * torch.randn(d)).to(dtype)
            dy = torch.randn(args.rows, d).to(dtype)
            x64 = x.double()
            w64 = w.double().requires_grad_()
            rmsnorm(x64, w64).backward(dy.double())
            ref = w64.grad
            wt = w.clone().requires_grad_()
            rmsnorm(x, wt).backward(dy)
            got = [error(wt.grad, ref)]
            for norm in norms:
                _, dgamma, *_ = norm.backward(dy, x, gamma=w)
                got.append(error(dgamma, ref))
            print(f"{name:6} {d:>6} {got[0]:>10.2e} {got[1]:>10.2e} "
                  f"{got[2]:>15.2e}")


if __name__ == "__main__":
    main()
