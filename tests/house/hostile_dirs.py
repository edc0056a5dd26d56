#!/usr/bin/env python3
"""Hostile run directories: what an attacker (or a broken disk) can put where `--from DIR`
reads (docs/formats.md, "What a reader may conclude from a directory's state").

    hostile_dirs.py make KIND N DIR BASE    make DIR from the run directory BASE (a small one
                                           `tscaudit simulate --topology` wrote), KIND of size N

KIND:
  depth    the manifest's `platform` holds a value nested N deep
  keys     the manifest's `pair_header` has N keys
  cpus     the manifest and its plan name N CPUs (every rounds file missing but two)
  frames   rounds/cpu-0.zst repeats its first frame N times
  claim    rounds/cpu-0.zst's first visit holds N rounds (a plan of far fewer per visit)
  fifo     manifest.json is a FIFO (N: unused)
  topofifo topology.xml is a FIFO
  zero     topology.xml is a link to /dev/zero
The frames are made with the zstd command (zstd -19 --long), as the writer makes them.
"""
import json
import os
import shutil
import subprocess
import sys


def manifest_of(base):
    with open(os.path.join(base, "manifest.json")) as f:
        return json.load(f)


def write_manifest(d, m, text=None):
    with open(os.path.join(d, "manifest.json"), "w") as f:
        f.write(text if text is not None else json.dumps(m))


def zstd_frame(text):
    return subprocess.run(["zstd", "-q", "-19", "--long=27", "-c"], input=text.encode(), capture_output=True,
                          check=True).stdout


def first_frame_text(base):
    """The first visit of rounds/cpu-0.zst as text: its visit line and rounds."""
    text = subprocess.run(["zstd", "-dc", os.path.join(base, "rounds", "cpu-0.zst")], capture_output=True,
                          check=True).stdout.decode()
    lines = text.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if line.startswith("# visit "):
            break
        out.append(line)
    return "\n".join(out).rstrip("\n") + "\n"


def make(kind, n, d, base):
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(base, d, symlinks=True)
    m = manifest_of(base)
    if kind == "depth":
        text = json.dumps(m)
        nested = "[" * n + "]" * n
        text = text.replace('"platform": {', '"platform": {"deep": ' + nested + ', ', 1)
        write_manifest(d, m, text)
    elif kind == "keys":
        m["pair_header"].update({f"k{i}": "v" for i in range(n)})
        write_manifest(d, m)
    elif kind == "cpus":
        cpus = list(range(n))
        m["cpus"] = cpus
        m["plan"]["spec"]["cpus"] = cpus
        m["plan"]["spec"]["visits"] = 1
        m["plan"]["spec"]["design"] = "sparse"
        m["plan"]["spec"]["pairs"] = [[i, i + 1] for i in range(0, n - 1, 2)]
        m["topology"] = None
        os.remove(os.path.join(d, "topology.xml"))
        write_manifest(d, m)
    elif kind == "frames":
        frame = zstd_frame(first_frame_text(base))
        with open(os.path.join(d, "rounds", "cpu-0.zst"), "wb") as f:
            for _ in range(n):
                f.write(frame)
    elif kind == "claim":
        head = first_frame_text(base).split("\n")
        visit = head[0].split(" ")
        visit = [f"rounds={n}" if w.startswith("rounds=") else w for w in visit]
        body = "\n".join([" ".join(visit), head[1], head[2]]) + "\n" + "1,1,1,1,0\n" * (n - 1)
        with open(os.path.join(d, "rounds", "cpu-0.zst"), "wb") as f:
            f.write(zstd_frame(body))
    elif kind == "fifo":
        os.remove(os.path.join(d, "manifest.json"))
        os.mkfifo(os.path.join(d, "manifest.json"))
    elif kind == "topofifo":
        os.remove(os.path.join(d, "topology.xml"))
        os.mkfifo(os.path.join(d, "topology.xml"))
    elif kind == "zero":
        os.remove(os.path.join(d, "topology.xml"))
        os.symlink("/dev/zero", os.path.join(d, "topology.xml"))
    else:
        sys.exit(f"unknown kind {kind}")


if __name__ == "__main__":
    if len(sys.argv) != 6 or sys.argv[1] != "make":
        sys.exit(__doc__)
    make(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
