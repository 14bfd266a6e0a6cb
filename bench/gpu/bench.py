#!/usr/bin/env python3
"""normc against its peers: RMSNorm and LayerNorm, forward and backward.

Every implementation is timed by one harness: a warm-up, then at least
`--runs` launches, each after the L2 cache is flushed (a write of 256 MiB),
timed by CUDA events (perf_counter on the CPU device); the median is kept.
Bytes count each tensor read or written once (x, y, gamma, beta); the
device-to-device copy of x into y is the speed of light. normc runs its
tuned kernels from a kernel pack through the runtime-only build's C library
(libnormc_bench.so); its y and dx are checked against PyTorch's on the
same inputs before they are timed. A peer's backward is timed as
torch.autograd.grad of its output with respect to x, gamma (and beta).

Writes results.json, results.md and results.png into --out. With --dry it
runs end to end on the CPU device with tiny shapes; peers that are not
installed (Liger, QuACK) or need a GPU are skipped and listed as such.
"""
import argparse
import ctypes
import json
import math
import os
import platform
import statistics
import struct
import sys
import time
import zlib

NORMS = ("rmsnorm", "layernorm")
DTYPES = ("bf16", "f32")
EPS = {"rmsnorm": 1e-6, "layernorm": 1e-5}
FULL_SHAPES = [(rows, d) for rows in (4096, 32768)
               for d in (256, 1024, 4096, 8192, 16384, 65536)] + [
                   (4096, 131072), (4096, 262144)]
DRY_SHAPES = [(8, 256), (3, 1024)]
IMPLS = ("copy", "normc", "torch", "torch.compile", "liger", "quack")


def pack_name(norm, dtype, d):
    """The folder of the pack bench/gpu/make-packs.sh makes for a shape."""
    return f"{norm}_{dtype}_d{d}"


def parse_args():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dry", action="store_true",
                   help="the CPU device and tiny shapes (what CI runs)")
    p.add_argument("--packs", default=os.path.join(root, "build-bench", "packs"))
    p.add_argument("--lib", default=os.path.join(
        root, "build-runtime", "lib", "libnormc_bench.so"))
    p.add_argument("--out", default=os.path.join(root, "bench", "results"))
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--cache", default=None,
                   help="normc's kernel and tuning caches (default: a "
                        "folder in --out's parent)")
    p.add_argument("--autotune", type=int, default=1,
                   help="1: normc measures every candidate of a new shape "
                        "(the default; 0 in --dry: the heuristic's kernel)")
    p.add_argument("--budget", type=float, default=420.0,
                   help="seconds after which remaining shapes are skipped")
    return p.parse_args()


class Normc:
    """normc's kernels from packs, through libnormc_bench.so."""

    def __init__(self, lib, packs, device, cache, autotune):
        self.lib = ctypes.CDLL(lib)
        self.lib.normc_bench_open.restype = ctypes.c_void_p
        self.lib.normc_bench_open.argtypes = [
            ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int,
            ctypes.c_char_p, ctypes.c_int]
        self.lib.normc_bench_close.argtypes = [ctypes.c_void_p]
        self.lib.normc_bench_prepare.argtypes = [
            ctypes.c_void_p, ctypes.c_longlong, ctypes.c_longlong,
            ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        self.lib.normc_bench_run.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
            ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_void_p),
            ctypes.c_longlong, ctypes.c_longlong, ctypes.c_void_p,
            ctypes.c_char_p, ctypes.c_int]
        self.packs, self.device, self.cache = packs, device, cache
        self.autotune = autotune
        self.handles = {}

    def _error(self):
        return ctypes.create_string_buffer(4096)

    def open(self, norm, dtype, d):
        key = (norm, dtype, d)
        if key not in self.handles:
            err = self._error()
            path = os.path.join(self.packs, pack_name(norm, dtype, d))
            h = self.lib.normc_bench_open(path.encode(), self.device.encode(),
                                          self.cache.encode(), self.autotune,
                                          err, 4096)
            if not h:
                raise RuntimeError(err.value.decode())
            self.handles[key] = h
        return self.handles[key]

    def prepare(self, handle, rows, d):
        err, schedule = self._error(), ctypes.create_string_buffer(512)
        if self.lib.normc_bench_prepare(handle, d, rows, schedule, 512, err,
                                        4096):
            raise RuntimeError(err.value.decode())
        return schedule.value.decode()

    def run(self, handle, program, rows, d, stream, **tensors):
        """`program` on the tensors by argument name (None: absent)."""
        present = {k: t for k, t in tensors.items() if t is not None}
        names = (ctypes.c_char_p * len(present))(*(k.encode() for k in present))
        pointers = (ctypes.c_void_p * len(present))(
            *(t.data_ptr() for t in present.values()))
        err = self._error()
        if self.lib.normc_bench_run(handle, program.encode(), len(present),
                                    names, pointers, rows, d,
                                    ctypes.c_void_p(stream), err, 4096):
            raise RuntimeError(err.value.decode())

    def close(self):
        for h in self.handles.values():
            self.lib.normc_bench_close(h)


def peers(torch, cuda):
    """Each peer's forward per norm, or why it is absent."""
    F = torch.nn.functional
    eager = {
        "rmsnorm": lambda x, w, b: F.rms_norm(x, (x.shape[-1],), w,
                                              EPS["rmsnorm"]),
        "layernorm": lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b,
                                                  EPS["layernorm"]),
    }
    out = {"torch": eager, "torch.compile": {
        n: torch.compile(f, dynamic=False) for n, f in eager.items()}}
    missing = {}
    if not cuda:
        missing["liger"] = missing["quack"] = "needs a CUDA GPU"
        return out, missing
    try:
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction
        out["liger"] = {
            "rmsnorm": lambda x, w, b: LigerRMSNormFunction.apply(
                x, w, EPS["rmsnorm"], 0.0, "llama"),
            "layernorm": lambda x, w, b: LigerLayerNormFunction.apply(
                x, w, b, EPS["layernorm"]),
        }
    except Exception as e:  # not installed, or an incompatible version
        missing["liger"] = f"not importable: {e}"
    try:
        import quack
        out["quack"] = {"rmsnorm": lambda x, w, b: quack.rmsnorm(
            x, w, eps=EPS["rmsnorm"])}
        if hasattr(quack, "layernorm"):
            out["quack"]["layernorm"] = lambda x, w, b: quack.layernorm(
                x, w, b, eps=EPS["layernorm"])
    except Exception as e:
        missing["quack"] = f"not importable: {e}"
    return out, missing


class Timer:
    """Median seconds of `runs` calls of fn, each after an L2 flush."""

    def __init__(self, torch, cuda, runs, warmup):
        self.torch, self.cuda, self.runs, self.warmup = torch, cuda, runs, warmup
        self.flush = torch.empty(256 << 20 if cuda else 1 << 20,
                                 dtype=torch.uint8,
                                 device="cuda" if cuda else "cpu")

    def __call__(self, fn):
        torch = self.torch
        for _ in range(self.warmup):
            fn()
        times = []
        for _ in range(self.runs):
            self.flush.zero_()
            if self.cuda:
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                fn()
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end) / 1e3)
            else:
                t0 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t0)
        return statistics.median(times)


def bytes_moved(norm, direction, rows, d, size):
    """Each tensor read or written once. Forward: x, y, gamma (and beta).
    Backward: x, dy, dx, gamma, dgamma (and dbeta)."""
    params = 2 if norm == "layernorm" else 1
    if direction == "forward":
        return (2 * rows * d + params * d) * size
    return (3 * rows * d + (1 + params) * d) * size


def check(torch, got, want, dtype):
    """normc's output against PyTorch's: the largest difference in units of
    the type's rounding at the row's largest value (a few such units: both
    round once from f32 sums in different orders)."""
    g, w = got.double(), want.double()
    scale = w.abs().amax(dim=1, keepdim=True).clamp_min(1e-30)
    ulp = 2.0 ** (-8 if dtype == "bf16" else -24)
    err = ((g - w).abs() / scale).max().item() / ulp
    return {"max_error_ulps": err, "ok": bool(err <= 8 and torch.isfinite(g).all())}


def measure_shape(ctx, norm, dtype, rows, d):
    """A result row per direction for one shape."""
    torch, timer, normc = ctx["torch"], ctx["timer"], ctx["normc"]
    device, stream = ctx["device"], ctx["stream"]
    t = {"bf16": torch.bfloat16, "f32": torch.float32}[dtype]
    gen = torch.Generator(device=device).manual_seed(rows + d)
    x = torch.randn(rows, d, generator=gen, device=device).to(t)
    dy = torch.randn(rows, d, generator=gen, device=device).to(t)
    w = (1 + 0.1 * torch.randn(d, generator=gen, device=device)).to(t)
    b = (0.1 * torch.randn(d, generator=gen, device=device)).to(t)
    b = b if norm == "layernorm" else None
    y, dx = torch.empty_like(x), torch.empty_like(x)
    dw = torch.empty_like(w)
    db = torch.empty_like(b) if b is not None else None
    size = x.element_size()
    # The speed of light: x copied into y.
    copy = 2 * rows * d * size / timer(lambda: y.copy_(x)) / 1e9
    leaves = [v.detach().requires_grad_() for v in (x, w, b) if v is not None]
    # A peer's forward on the leaves (beta None for RMSNorm), for autograd.
    on_leaves = lambda fn: fn(*leaves) if b is not None else fn(*leaves, None)
    out = []
    for direction in ("forward", "backward"):
        moved = bytes_moved(norm, direction, rows, d, size)
        row = {"norm": norm, "dtype": dtype, "rows": rows, "d": d,
               "direction": direction, "bytes": moved,
               "gbps": {"copy": copy}, "notes": {}}
        try:
            h = normc.open(norm, dtype, d)
            if direction == "forward":
                row["normc_schedule"] = normc.prepare(h, rows, d)
                run = lambda: normc.run(h, "forward", rows, d, stream(), x=x, gamma=w,
                                       beta=b, y=y)
                got, want = y, lambda: ctx["impls"]["torch"][norm](x, w, b)
            else:
                run = lambda: normc.run(h, "backward", rows, d, stream(), x=x,
                                       gamma=w, dy=dy, dx=dx, dgamma=dw,
                                       dbeta=db)
                got = dx

                def want():
                    yy = on_leaves(ctx["impls"]["torch"][norm])
                    return torch.autograd.grad(yy, leaves[0], dy)[0]
            run()  # first use: tunes on CUDA
            if ctx["cuda"]:
                torch.cuda.synchronize()
            row["check"] = check(torch, got, want(), dtype)
            row["gbps"]["normc"] = moved / timer(run) / 1e9
        except RuntimeError as e:
            row["notes"]["normc"] = str(e).splitlines()[0]
        for name in IMPLS[2:]:
            fn = ctx["impls"].get(name, {}).get(norm)
            if fn is None:
                row["notes"][name] = ctx["missing"].get(name, "no such norm")
                continue
            try:
                if direction == "forward":
                    seconds = timer(lambda: fn(x, w, b))
                else:
                    yy = on_leaves(fn)
                    seconds = timer(lambda: torch.autograd.grad(
                        yy, leaves, dy, retain_graph=True))
                row["gbps"][name] = moved / seconds / 1e9
            except Exception as e:  # a peer that cannot run a shape
                row["notes"][name] = str(e).splitlines()[0][:200]
        out.append(row)
        print(f"bench: {norm} {dtype} {rows}x{d} {direction}: " + ", ".join(
            f"{k} {v:.4g} GB/s" for k, v in row["gbps"].items()), flush=True)
    return out


def run(args):
    import torch
    cuda = not args.dry and torch.cuda.is_available()
    if not args.dry and not cuda:
        sys.exit("bench: no CUDA GPU; use --dry for the CPU device")
    device = "cuda" if cuda else "cpu"
    shapes = DRY_SHAPES if args.dry else FULL_SHAPES
    if args.dry:
        args.runs, args.warmup, args.autotune = min(args.runs, 3), 1, 0
    cache = args.cache or os.path.join(os.path.dirname(args.out), "bench-cache")
    impls, missing = peers(torch, cuda)
    ctx = {"torch": torch, "cuda": cuda, "device": device, "impls": impls,
           "missing": missing,
           "normc": Normc(args.lib, args.packs, device, cache, args.autotune),
           "timer": Timer(torch, cuda, args.runs, args.warmup),
           "stream": (lambda: torch.cuda.current_stream().cuda_stream)
           if cuda else (lambda: 0)}
    started = time.monotonic()
    results, skipped = [], []
    for norm in NORMS:
        for dtype in DTYPES:
            for rows, d in shapes:
                if time.monotonic() - started > args.budget:
                    skipped.append(f"{norm} {dtype} {rows}x{d}: time budget")
                    continue
                results += measure_shape(ctx, norm, dtype, rows, d)
    ctx["normc"].close()
    return {"device": device_facts(torch, cuda), "dry": args.dry,
            "runs": args.runs, "results": results, "skipped": skipped,
            "missing": missing, "seconds": time.monotonic() - started}


def device_facts(torch, cuda):
    facts = {"host": platform.node(), "torch": torch.__version__}
    if cuda:
        p = torch.cuda.get_device_properties(0)
        facts.update(name=p.name, sm=f"{p.major}{p.minor}",
                     memory_gib=round(p.total_memory / 2**30, 1),
                     driver=torch.cuda.driver_version()
                     if hasattr(torch.cuda, "driver_version") else None,
                     cuda=torch.version.cuda)
    else:
        facts["name"] = "CPU device (dry run)"
    return facts


def markdown(report):
    lines = [f"# normc's bandwidth on {report['device']['name']}", "",
             "GB/s, each tensor read or written counted once (forward: x, "
             "y, gamma, beta; backward: x, dy, dx, gamma, dgamma, dbeta); "
             "copy moves x into y. The last columns are normc's share of "
             "the copy and of the best peer, and normc's largest "
             "difference from PyTorch's y (or dx) in units of the type's "
             "rounding.", ""]
    head = ["norm", "dtype", "rows", "d", "pass"] + list(IMPLS) + [
        "normc/copy", "normc/best peer", "check (ulps)"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for r in report["results"]:
        g = r["gbps"]
        cells = [r["norm"], r["dtype"], str(r["rows"]), str(r["d"]),
                 r["direction"]]
        cells += [f"{g[i]:.4g}" if i in g else "-" for i in IMPLS]
        peers_ = [g[i] for i in IMPLS[2:] if i in g]
        n = g.get("normc")
        cells.append(f"{n / g['copy']:.2f}" if n else "-")
        cells.append(f"{n / max(peers_):.2f}" if n and peers_ else "-")
        c = r.get("check")
        cells.append(f"{c['max_error_ulps']:.1f}{'' if c['ok'] else ' FAIL'}"
                     if c else "-")
        lines.append("| " + " | ".join(cells) + " |")
    if report["missing"]:
        lines += ["", "Not measured: " + "; ".join(
            f"{k} ({v})" for k, v in report["missing"].items())]
    if report["skipped"]:
        lines += ["", "Skipped: " + "; ".join(report["skipped"])]
    return "\n".join(lines) + "\n"


COLORS = {"copy": (0, 0, 0), "normc": (214, 39, 40), "torch": (31, 119, 180),
          "torch.compile": (44, 160, 44), "liger": (148, 103, 189),
          "quack": (255, 127, 14)}


def plot(report, path):
    """GB/s against log2(d), one panel per pass x norm x dtype with the most
    rows run at each d, a line per implementation (colors as COLORS; results.md has the
    numbers). matplotlib when installed, else a plain PNG drawn here."""
    panels = []
    for direction in ("forward", "backward"):
        for norm in NORMS:
            for dtype in DTYPES:
                rs = [r for r in report["results"] if r["norm"] == norm and
                      r["dtype"] == dtype and r["direction"] == direction]
                if not rs:
                    continue
                # Per d, the run with the most rows.
                by_d = {}
                for r in sorted(rs, key=lambda r: r["rows"]):
                    by_d[r["d"]] = r
                panels.append((f"{norm} {dtype} {direction} (most rows)",
                               [by_d[d] for d in sorted(by_d)]))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        cols = min(4, len(panels))
        grid = (len(panels) + cols - 1) // cols
        fig, axes = plt.subplots(grid, cols, figsize=(5 * cols, 4 * grid),
                                 squeeze=False)
        for ax, (title, rs) in zip(axes.flat, panels):
            for impl in IMPLS:
                pts = [(r["d"], r["gbps"][impl]) for r in rs if impl in r["gbps"]]
                if pts:
                    ax.plot(*zip(*pts), marker="o", label=impl,
                            color=[c / 255 for c in COLORS[impl]])
            ax.set_xscale("log", base=2)
            ax.set_xlabel("d")
            ax.set_ylabel("GB/s")
            ax.set_title(title, fontsize=9)
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        return "matplotlib"
    except ImportError:
        write_png(panels, path)
        return "built-in"


def write_png(panels, path, width=360, height=240):
    """Each panel: axes, and a polyline per implementation."""
    W = width * max(1, len(panels))
    pixels = bytearray(b"\xff" * (W * height * 3))

    def put(x, y, c):
        if 0 <= x < W and 0 <= y < height:
            i = (y * W + x) * 3
            pixels[i:i + 3] = bytes(c)

    def line(x0, y0, x1, y1, c):
        n = max(abs(x1 - x0), abs(y1 - y0), 1)
        for k in range(n + 1):
            put(round(x0 + (x1 - x0) * k / n), round(y0 + (y1 - y0) * k / n), c)

    for p, (_, rs) in enumerate(panels):
        left, top, right, bottom = p * width + 30, 10, (p + 1) * width - 10, height - 20
        line(left, bottom, right, bottom, (0, 0, 0))
        line(left, top, left, bottom, (0, 0, 0))
        ds = [math.log2(r["d"]) for r in rs]
        top_gbps = max([v for r in rs for v in r["gbps"].values()] + [1e-9])
        span = max(ds) - min(ds) or 1
        for impl in IMPLS:
            pts = [((math.log2(r["d"]) - min(ds)) / span, r["gbps"][impl] / top_gbps)
                   for r in rs if impl in r["gbps"]]
            xy = [(round(left + u * (right - left)), round(bottom - v * (bottom - top)))
                  for u, v in pts]
            for a, b in zip(xy, xy[1:]):
                line(*a, *b, COLORS[impl])
            for x, y in xy:
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        put(x + dx, y + dy, COLORS[impl])
    raw = b"".join(b"\x00" + bytes(pixels[y * W * 3:(y + 1) * W * 3])
                   for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(
            ">I", zlib.crc32(body) & 0xffffffff)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", W, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def main():
    args = parse_args()
    for what, path in (("--lib", args.lib), ("--packs", args.packs)):
        if not os.path.exists(path):
            sys.exit(f"bench: {what} {path} does not exist "
                     "(bench/gpu/run.sh build makes it)")
    report = run(args)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(report, f, indent=1)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(markdown(report))
    report["plot"] = plot(report, os.path.join(args.out, "results.png"))
    failed = [r for r in report["results"]
              if "normc" not in r["gbps"] or not r.get("check", {}).get("ok")]
    print(f"bench: wrote {args.out}/results.{{json,md,png}} in "
          f"{report['seconds']:.0f} s; {len(report['results'])} shapes, "
          f"{len(failed)} where normc failed or disagreed with PyTorch")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
