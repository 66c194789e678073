#!/usr/bin/python3
"""gap_hist_pandas.py — bench/gap_hist.awk's job as a user would write it with pandas.

The per-request inter-line gap histogram of a WMF MediaWiki line log: read the columns
(date, time, bracketed request id), group the lines by request, take the differences of
consecutive times, count them in 0.1 % log buckets. Its output is the awk program's, byte
for byte (bench/run.sh checks it), so the benchmark compares like with like.

Usage: bench/gap_hist_pandas.py FILE     (needs Debian's python3-pandas)
"""

import csv
import math
import sys

import numpy as np
import pandas as pd


def main(path: str) -> int:
    lines = pd.read_csv(path, sep="\x01", header=None, names=["line"], dtype=str, quoting=csv.QUOTE_NONE,
                        skip_blank_lines=False, keep_default_na=False, engine="c")["line"]
    fields = lines.str.split(n=3, expand=True)  # awk's fields: runs of blanks, leading ones ignored
    while fields.shape[1] < 3:
        fields[fields.shape[1]] = None
    is_record = fields[2].fillna("").str.startswith("[")
    records = fields[is_record]
    continuation = int((~is_record).sum())

    days = (pd.to_datetime(records[0], format="%Y-%m-%d") - pd.Timestamp("1970-01-01")).dt.days.to_numpy()
    clock = records[1]
    day_s = ((days - days[0]) * 86400).astype(np.float64) if len(days) else np.zeros(0)
    # In awk's order, so that the doubles are the same: ((day + h * 3600) + m * 60) + s.
    t = day_s + clock.str[0:2].astype(np.float64).to_numpy() * 3600
    t = t + clock.str[3:5].astype(np.float64).to_numpy() * 60
    t = t + clock.str[6:].astype(np.float64).to_numpy()

    frame = pd.DataFrame({"key": records[2].to_numpy(), "t": t})
    gaps = frame.groupby("key", sort=False)["t"].diff().to_numpy()
    requests = int(frame["key"].nunique())
    seen = gaps[~np.isnan(gaps)]
    zero = int((seen == 0).sum())
    negative = int((seen < 0).sum())
    positive = seen[seen > 0]
    x = np.log(positive) * 1000
    buckets = np.floor(x).astype(np.int64)
    # numpy's log may differ from the C library's in the last bit: buckets near an edge are
    # worked out again with math.log, as awk does.
    near = np.abs(x - np.round(x)) < 1e-6
    for i in np.nonzero(near)[0]:
        buckets[i] = math.floor(math.log(positive[i]) * 1000)
    counts = pd.Series(buckets).value_counts().sort_index()

    out = sys.stdout
    out.write(f"# lines={len(lines)} requests={requests} gaps={len(seen)} zero={zero} negative={negative} "
              f"continuation={continuation}\n")
    out.write("# bucket\tlower_s\tcount\n")
    out.write(f"zero\t0\t{zero}\n")
    out.write(f"negative\t-\t{negative}\n")
    for bucket, count in counts.items():
        out.write("%d\t%.9g\t%d\n" % (bucket, math.exp(bucket / 1000), count))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: gap_hist_pandas.py FILE\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
