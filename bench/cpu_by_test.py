#!/usr/bin/env python3
"""Where a test run's CPU goes: samples every process once a second and charges its CPU time to
the browser test file (site/e2e/*.test.mjs) or Go test binary (*.test) it descends from, by kind
(chromium, node, java, moto, link, ...); "-" is what descends from neither (dev servers, the
shared emulators, compilers). Linux only (/proc). A process that lives less than a second may be
missed, so totals are a floor.

  python3 bench/cpu_by_test.py SECONDS OUT &  # then run the tests, e.g.:
  bash scripts/e2e.sh                         # or: go test -count=1 ./...
  cat OUT                                     # rewritten each second, heaviest first
"""
import collections
import os
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def stat(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK  # parent, CPU seconds


def cmdline(pid):
    return [a.decode(errors="replace") for a in open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0") if a]


def owner(pid):
    for _ in range(30):
        if pid <= 1:
            return "-"
        try:
            for arg in cmdline(pid):
                if arg.endswith(".test.mjs") or arg.endswith(".test"):
                    return os.path.basename(arg)
            pid = stat(pid)[0]
        except OSError:
            return "-"
    return "-"


def kind(pid):
    args = cmdline(pid)
    line = " ".join(args)
    for name in ("chrom", "moto", "java"):
        if name in line:
            return "chromium" if name == "chrom" else name
    return os.path.basename(args[0]) if args else "?"


def main():
    end, out = time.time() + float(sys.argv[1]), sys.argv[2]
    seen = {}  # pid: [owner, kind, CPU at first sight (processes already running), CPU since]
    first = True
    while time.time() < end:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                _, cpu = stat(pid)
                if pid not in seen:
                    seen[pid] = [owner(int(pid)), kind(pid), cpu if first else 0.0, 0.0]
            except OSError:
                continue
            seen[pid][3] = cpu - seen[pid][2]
        first = False
        by_owner = collections.defaultdict(collections.Counter)
        for who, what, _, cpu in seen.values():
            by_owner[who][what] += cpu
        with open(out, "w") as f:
            for who, kinds in sorted(by_owner.items(), key=lambda x: -sum(x[1].values())):
                top = " ".join(f"{k}={v:.0f}" for k, v in kinds.most_common(5))
                f.write(f"{sum(kinds.values()):8.1f} {who}  {top}\n")
        time.sleep(1)


if __name__ == "__main__":
    main()
