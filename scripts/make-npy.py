#!/usr/bin/env python3
"""Writes a .npy array of normally distributed values (no numpy).

usage: make-npy.py OUT.npy SHAPE [--seed N] [--mean M] [--std S] [--dtype T]
  SHAPE is comma-separated, e.g. 256,4096 or 4096
  T is float32 (the default), float64 or float16
"""
import argparse
import random
import struct

# numpy's descr and struct's format code of each dtype.
_FORMATS = {"float32": ("<f4", "f"), "float64": ("<f8", "d"), "float16": ("<f2", "e")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("shape")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mean", type=float, default=0.0)
    parser.add_argument("--std", type=float, default=1.0)
    parser.add_argument("--dtype", choices=sorted(_FORMATS), default="float32")
    args = parser.parse_args()
    descr, code = _FORMATS[args.dtype]

    shape = tuple(int(n) for n in args.shape.split(","))
    count = 1
    for n in shape:
        count *= n
    rng = random.Random(args.seed)
    values = [rng.gauss(args.mean, args.std) for _ in range(count)]

    dims = ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    # Magic, version 1.0, header length; the header ends in a newline and is
    # padded so that the data starts on a 64-byte boundary.
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(args.out, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (count, code), *values))


if __name__ == "__main__":
    main()
