#!/usr/bin/env python3
"""Shuffles and barriers a row takes in the first kernel of kern IR.

usage: normc compile SPEC --emit=lowered ... | bench/row-steps.py

Counts from the kernel-level IR what each thread of a row executes once
per row: warp shuffles (log2(lanes) a kern.warp_sum; log2(lanes) a
kern.tree_tile for every chunk of its pass; 5 a kern.tree_total, plus its
runs' additions), block barriers (kern.barrier in the row loop) and cluster
barriers. Prints "shuffles barriers cluster_barriers".
"""
import math
import re
import sys


def ceil_div(a, b):
    return -(-a // b)


def main():
    text = sys.stdin.read()
    kernel = re.search(r"kern\.kernel @\S+ (?:d\((\d+)\) )?.*?schedule\(#sched\.schedule<"
                       r"(\w+),(.*?)>\)", text)
    if not kernel:
        sys.exit("row-steps: no kern.kernel in the input")
    d = int(kernel.group(1) or 0)
    params = dict(re.findall(r"(\w+) = (\w+)", kernel.group(3)))
    threads = int(params["threads_per_row"])
    width = int(params["vector_width"])
    blocks = int(params.get("cluster_size", 1))
    # The features a block handles (normc::featuresPerBlock, clusterSlice).
    per_pass = threads * width
    slice_ = ceil_div(ceil_div(d, blocks), per_pass) * per_pass
    # Only the first kernel (the forward, or a backward's row kernel).
    body = text[kernel.end():]
    following = body.find("kern.kernel @")
    if following >= 0:
        body = body[:following]
    shuffles = barriers = cluster = 0
    chunks = 1
    for line in body.splitlines():
        if m := re.search(r"kern\.for_chunks unrolled\((\d+)\)", line):
            chunks = int(m.group(1))
        elif "kern.for_chunks uniform" in line:
            chunks = ceil_div(slice_, per_pass)
        elif m := re.search(r"kern\.warp_sum .*lanes\((\d+)\)", line):
            shuffles += int(math.log2(int(m.group(1))))
        elif m := re.search(r"kern\.tree_tile .*lanes\((\d+)\)", line):
            shuffles += chunks * int(math.log2(int(m.group(1))))
        elif "kern.tree_total" in line:
            shuffles += 5
        elif re.search(r"kern\.barrier\b", line):
            barriers += 1
        elif "kern.cluster_barrier" in line:
            cluster += 1
    print(shuffles, barriers, cluster)


if __name__ == "__main__":
    main()
