#!/usr/bin/python3
"""The Dask recipe of docs/distributed.md on a LocalCluster of separate worker processes.

Each worker stands for a host: it is given its share of the logs, runs one partial scan over
them (gapscan scan --partial) and returns the partial's bytes; the client writes the partials in
the order of the shares and runs gapscan merge. The merged report must be byte-for-byte the
report of one scan over all the logs, in the same order.

Usage: dask_merge.py GAPSCAN LOG...   (exit 0: identical; 1: different; 2: could not run)
"""

import os
import subprocess
import sys
import tempfile


def scan_share(gapscan, logs, workdir):
    """Runs on a worker: one partial scan over this worker's logs; its bytes and the worker's pid."""
    partial = os.path.join(workdir, "share-%d.gsp" % os.getpid())
    subprocess.run([gapscan, "scan", "-q", "-j", "1", "--partial", partial, *logs], check=True)
    with open(partial, "rb") as f:
        data = f.read()
    os.remove(partial)
    return os.getpid(), data


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    gapscan, logs = sys.argv[1], sys.argv[2:]
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as error:
        print("dask_merge: python3-distributed is missing (scripts/deps.sh installs it): %s" % error, file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="gapscan-dask.") as scratch:
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          local_directory=scratch) as cluster, Client(cluster) as client:
            workers = sorted(client.scheduler_info()["workers"])
            # Each worker's share: the logs in order, split into as many consecutive runs as workers.
            size = (len(logs) + len(workers) - 1) // len(workers)
            shares = [logs[i:i + size] for i in range(0, len(logs), size)]
            futures = [client.submit(scan_share, gapscan, share, scratch, workers=[workers[k % len(workers)]],
                                     pure=False) for k, share in enumerate(shares)]
            results = client.gather(futures)
        pids = {pid for pid, _ in results}
        if os.getpid() in pids or len(pids) != min(len(shares), len(workers)):
            print("dask_merge: the shares did not run in separate worker processes: %s" % pids, file=sys.stderr)
            return 1
        partials = []
        for k, (_, data) in enumerate(results):
            path = os.path.join(scratch, "part-%02d.gsp" % k)
            with open(path, "wb") as f:
                f.write(data)
            partials.append(path)
        merged = subprocess.run([gapscan, "merge", "-q", "--output", "json", *partials], capture_output=True,
                                check=True).stdout
        one = subprocess.run([gapscan, "scan", "-q", "--output", "json", *logs], capture_output=True,
                             check=True).stdout
    if merged != one:
        print("dask_merge: the merged report differs from one scan's", file=sys.stderr)
        return 1
    print("dask_merge: %d shares scanned by %d worker processes merge into the report of one scan"
          % (len(shares), len(pids)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
