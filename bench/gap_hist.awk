# gap_hist.awk — the awk baseline for gapscan's benchmark: per-request inter-line gap
# histogram of a WMF MediaWiki line log (log-formats.md §2.3):
#
#   2026-01-01 00:00:00.123456 [<reqId>] <host> <wiki> <mwversion> <channel> <LEVEL>: ...
#
# For each line, key = field 3 (the bracketed reqId), t = fields 1-2 in seconds. When the key
# was seen before, gap = t - last[key] goes into a log-scale histogram with 0.1 % relative
# bucket width: bucket b = floor(1000 * ln(gap)), covering [e^(b/1000), e^((b+1)/1000)) s.
# Zero gaps and negative gaps (lines out of order) are counted apart.
#
# Lines whose field 3 is not a bracketed id (exception traces and other continuation lines)
# carry no timestamp; they are counted as "continuation" and otherwise skipped.
#
# Time: the date is turned into a day number (days since 1970-01-01, once per distinct date
# string), and t is counted from the first line's day, which handles day, month and year
# changes and keeps microseconds exact in a double for logs spanning days (over many months,
# a double's ~4 ns resolution at 10^7 s can move a 1 µs gap by a bucket or two).
#
# Output (tab-separated, sorted by bucket): "bucket  lower_s  count" rows, preceded by the
# "zero" and "negative" rows, with "#" comment lines for the header and the line counts.
#
# Usage: mawk -f bench/gap_hist.awk FILE   (POSIX awk only; tested with mawk)

BEGIN {
    # Days before each month in a non-leap year.
    split("0 31 59 90 120 151 181 212 243 273 304 334", month_start, " ")
    day0 = ""
    zero = 0; negative = 0; gaps = 0; requests = 0; continuation = 0
}

substr($3, 1, 1) != "[" { continuation++; next }

{
    if ($1 != date) {
        date = $1
        y = substr(date, 1, 4) + 0
        m = substr(date, 6, 2) + 0
        d = substr(date, 9, 2) + 0
        yp = y - 1   # leap days in the whole years before y
        days = 365 * (y - 1970) + int(yp / 4) - int(yp / 100) + int(yp / 400) - 477 \
               + month_start[m] + d - 1
        if (m > 2 && (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))) days++
        if (day0 == "") day0 = days
        day_s = (days - day0) * 86400
    }
    clock = $2
    t = day_s + substr(clock, 1, 2) * 3600 + substr(clock, 4, 2) * 60 + substr(clock, 7)

    key = $3
    if (key in last) {
        gap = t - last[key]
        if (gap > 0) {
            x = log(gap) * 1000
            b = int(x)
            if (b > x) b--   # floor, also for negative x
            hist[b]++
            if (gaps == 0 || b < bmin) bmin = b
            if (gaps == 0 || b > bmax) bmax = b
            gaps++
        } else if (gap == 0) {
            zero++
        } else {
            negative++
        }
    } else {
        requests++
    }
    last[key] = t
}

END {
    printf "# lines=%d requests=%d gaps=%d zero=%d negative=%d continuation=%d\n", \
        NR, requests, gaps + zero + negative, zero, negative, continuation
    printf "# bucket\tlower_s\tcount\n"
    printf "zero\t0\t%d\n", zero
    printf "negative\t-\t%d\n", negative
    if (gaps > 0)
        for (b = bmin; b <= bmax; b++)
            if (b in hist)
                printf "%d\t%.9g\t%d\n", b, exp(b / 1000), hist[b]
}
