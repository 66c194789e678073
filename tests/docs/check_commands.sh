#!/usr/bin/env bash
# Every gapscan command line shown in the documentation works as written.
#
# The command lines are extracted from the docs, not listed here: fenced ```sh/bash/shell/
# console blocks (console: the `$ ` lines only), indented code blocks, inline `code` spans
# (also across line breaks), and the EXAMPLES section of the man page. A line counts when it
# starts with `gapscan` (after an optional `$ ` prompt), with `build/release/gapscan ARGS`,
# or has a pipeline stage starting with one of those (`… | gapscan`).
#
# Each one runs with bash from a temporary copy of the source tree (so paths relative to the
# repository root work and anything the command writes stays out of the repository), with
# `gapscan` on PATH and `build/release/gapscan` both being the binary under test, and with
# samples/memcached-nagle.log on standard input (for `gapscan`, `gapscan events`, … that read
# stdin). A command passes when it exits with its documented status and prints no usage error.
# The documented status is 0, or the one in the EXPECT table below, or the one its trailing
# comment names (`# exits 3`); a --fail-on command must have one of the latter two.
#
# Synopsis lines (`gapscan causes [ID]`) run with their placeholders filled in from the
# PLACEHOLDERS table; example paths outside the tree (/var/log/mediawiki/) are rewritten to
# fixtures by the FIXTURE_PATHS table; illustrative file names (app.log, client.log, …) exist
# as fixtures in the temporary tree. A command that cannot run here (a journal unit, a remote
# host) is listed in SKIPS with the reason, and its gapscan stage runs on a fixture instead, so
# its options are still checked. Anything else not runnable as written is a failure.
#
#   tests/docs/check_commands.sh GAPSCAN_BINARY SOURCE_DIR
#   tests/docs/check_commands.sh --self-test GAPSCAN_BINARY SOURCE_DIR
#
# Environment:
#   GAPSCAN_DOC_FILES      docs to read instead of the default list (space-separated, relative
#                          to SOURCE_DIR or absolute, globs allowed)
#   GAPSCAN_DOC_MIN        fail when fewer commands than this are found (default: the count
#                          expected for the default list; 1 with GAPSCAN_DOC_FILES)
#   GAPSCAN_DOC_TIMEOUT    seconds per command (default 300)
#
# Output: one line per command (ok / skip / FAIL), then a summary; exit 1 when any failed or
# too few commands were found, 2 on a usage error.
set -euo pipefail

usage() {
    echo "usage: $0 [--self-test] GAPSCAN_BINARY SOURCE_DIR" >&2
    exit 2
}

self_test=0
if [[ ${1:-} == --self-test ]]; then
    self_test=1
    shift
fi
(($# == 2)) || usage
bin_arg=$1
src=$(cd -- "$2" && pwd)
script=$src/tests/docs/check_commands.sh
[[ -f $script ]] || script=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)/$(basename -- "${BASH_SOURCE[0]}")

# The binary may be being rebuilt: wait for it rather than fail at once.
wait_for_binary() {
    local i
    for ((i = 0; i < 120; i++)); do
        [[ -x $bin_arg && -s $bin_arg ]] && return 0
        sleep 1
    done
    echo "check_commands.sh: no executable gapscan at $bin_arg" >&2
    exit 2
}
wait_for_binary
bin=$(cd -- "$(dirname -- "$bin_arg")" && pwd)/$(basename -- "$bin_arg")

# ---------------------------------------------------------------------------------------------
# Tables. Keys are the command as extracted (comment stripped, whitespace as in the doc).

# The docs read by default, and the fewest commands each must yield (a parsing regression
# must not let this check pass vacuously).
default_docs="README.md CONTRIBUTING.md docs/*.md docs/gapscan.1"
declare -A MIN_PER_DOC=(
    [README.md]=12             # indented code blocks and inline spans (the synopsis too)
    [CONTRIBUTING.md]=1        # build/release/gapscan …
    [docs/catalog.md]=5        # inline spans
    [docs/formats.md]=5
    [docs/gapscan.1]=4         # man page EXAMPLES
)
default_min_total=32

# Placeholders of synopsis lines, in order: literal text -> what runs in its place.
PLACEHOLDERS=(
    '[scan]'                 'scan'
    '[options]'              ''
    '[FILE|FOLDER|-]...'     'samples/memcached-nagle.log'
    '[ID]'                   'nagle_delack_noreply_pipeline'
    ' ID'                    ' nagle_delack_noreply_pipeline'
    '[DIR]'                  'patterns'
    ' DIR'                   ' patterns'
    '[COMMAND]'              'scan'
    'PARTIAL...'             'PARTIAL.gsp'
)

# Example paths outside the source tree -> fixtures made below in the temporary tree.
FIXTURE_PATHS=(
    '/var/log/mediawiki/' 'var/log/mediawiki/'
    '/var/log/php8.2-fpm.log' 'var/log/php8.2-fpm.log'
)

# Exit status other than 0, for commands whose doc says so in prose: command -> status.
declare -A EXPECT=()

# Commands that cannot run here: extended regex on the command, reason, stdin fixture for the
# gapscan stage (the command from its first `gapscan` stage on) that runs in their place.
SKIPS=(
    '^journalctl '
    'needs a systemd journal with a php-fpm unit (on Debian 12: php8.2-fpm, logging to syslog)'
    'journal-short-iso-precise.log'
    '^ssh '
    'needs a remote host'
    'samples/memcached-nagle.log'
    '^tail -F '
    'follows a file that never ends'
    'samples/memcached-nagle.log'
)

# ---------------------------------------------------------------------------------------------
# Extraction: prints "DOC:LINE<TAB>COMMAND<TAB>COMMENT" for every gapscan command line.
extract() { # DOC (path relative to $src or absolute), NAME to print
    awk -v name="$2" '
    function is_cmd(s) {
        return s ~ /^gapscan( |$)/ || s ~ /^(\.\/)?build\/release\/gapscan [^ ]/ ||
               s ~ /\|[ ]*gapscan( |$)/ || s ~ /\|[ ]*(\.\/)?build\/release\/gapscan /
    }
    # Splits off a shell comment (an unquoted # at the start of a word) into the global cmt.
    function strip_comment(s,    i, c, q, out) {
        q = ""; cmt = ""
        for (i = 1; i <= length(s); i++) {
            c = substr(s, i, 1)
            if (q == "" && c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t]/)) {
                cmt = substr(s, i + 1); sub(/^[ \t]+/, "", cmt)
                out = substr(s, 1, i - 1); sub(/[ \t]+$/, "", out)
                return out
            }
            if (q == "" && (c == "\047" || c == "\"")) q = c
            else if (q != "" && c == q) q = ""
            else if (q != "\047" && c == "\\") i++
        }
        sub(/[ \t]+$/, "", s)
        return s
    }
    function emit(line, s, prompt_only) {
        sub(/^[ \t]+/, "", s)
        if (s ~ /^\$ /) s = substr(s, 3)
        else if (prompt_only) return
        s = strip_comment(s)
        if (is_cmd(s)) { gsub(/\t/, " ", s); gsub(/\t/, " ", cmt); print name ":" line "\t" s "\t" cmt }
    }
    # A code line, joining backslash continuations.
    function code_line(s, prompt_only) {
        if (pending != "") { sub(/^[ \t]+/, "", s); s = pending " " s; line0 = pline } else line0 = FNR
        if (s ~ /\\$/) { pending = substr(s, 1, length(s) - 1); sub(/[ \t]+$/, "", pending); pline = line0; return }
        pending = ""
        emit(line0, s, prompt_only)
    }
    function inline_spans(s,    i, n, c, run) {
        i = 1
        while (i <= length(s)) {
            c = substr(s, i, 1)
            if (c == "`") {
                n = 0
                while (substr(s, i + n, 1) == "`") n++
                run = substr(s, i, n)
                if (span_n == 0) { span_n = n; span = ""; span_line = FNR }
                else if (n == span_n) {
                    gsub(/\\\|/, "|", span)
                    sub(/^ /, "", span); sub(/ $/, "", span)
                    emit(span_line, span, 0)
                    span_n = 0
                } else span = span run
                i += n
                continue
            }
            if (span_n > 0) span = span c
            i++
        }
        if (span_n > 0) span = span " "
    }
    FILENAME ~ /\.[1-9]$/ {                                   # man page: EXAMPLES only
        if ($0 ~ /^\.SH/) { in_ex = ($0 ~ /^\.SH[ \t]+"?EXAMPLES/); next }
        if (!in_ex || $0 ~ /^[.\047]/) next
        s = $0
        gsub(/\\-/, "-", s); gsub(/\\\(aq/, "\047", s); gsub(/\\\(dq/, "\"", s)
        gsub(/\\f[BIRP]/, "", s); gsub(/\\&/, "", s); gsub(/\\e/, "\\", s)
        code_line(s, 0)
        next
    }
    {                                                         # Markdown
        if (fence != "") {
            if ($0 ~ ("^ ? ? ?" fence)) { fence = ""; pending = ""; next }
            if (fence_lang ~ /^(sh|bash|shell|zsh|console|shell-session)?$/)
                code_line($0, fence_lang ~ /^(console|shell-session)$/)
            next
        }
        if ($0 ~ /^ ? ? ?(```|~~~)/) {
            fence = $0; sub(/^ +/, "", fence); fence = substr(fence, 1, 3)
            fence_lang = $0; sub(/^ *(```|~~~)[`~]*[ \t]*/, "", fence_lang); sub(/[ \t{].*$/, "", fence_lang)
            span_n = 0; pending = ""
            next
        }
        if ($0 ~ /^[ \t]*$/) { blank = 1; span_n = 0; next }
        if ($0 ~ /^    / && (blank || in_indent)) {          # indented code block
            in_indent = 1; blank = 0
            code_line(substr($0, 5), 0)
            next
        }
        in_indent = 0; blank = 0; pending = ""
        inline_spans($0)
    }
    ' "$1"
}

# ---------------------------------------------------------------------------------------------
# Self-test: a doc with invented wrong options in every kind of block must fail, line by line.
if ((self_test)); then
    st=$(mktemp -d "${TMPDIR:-/tmp}/gapscan-docs-selftest.XXXXXX")
    trap 'rm -rf -- "$st"' EXIT
    cat >"$st/bad.md" <<'EOF'
# Self-test

Inline: `gapscan --no-such-option x` and `gapscan --version`.

    gapscan --no-such-option-indented x     # an indented block

```sh
$ gapscan --no-such-option-fenced \
    samples/memcached-nagle.log
gapscan formats
```

```console
$ gapscan --output jsn samples/memcached-nagle.log
gapscan: this line is output, not a command
```

A doc status that does not happen: `gapscan samples/memcached-nodelay.log --fail-on likely  # exits 3`

A missing file: `gapscan no-such-file.log`

    gapscan -o json samples/memcached-nagle.log | no-such-tool-xyz '.a | .b'
    journalctl -u php-fpm | gapscan --no-such-option-skipped
EOF
    cat >"$st/bad.1" <<'EOF'
.TH T 1
.SH EXAMPLES
.nf
gapscan \-\-no\-such\-option\-roff samples/memcached-nagle.log
gapscan patterns check
.fi
.SH SEE ALSO
gapscan \-\-not\-an\-example
EOF
    set +e
    out=$(GAPSCAN_DOC_FILES="$st/bad.md $st/bad.1" GAPSCAN_DOC_MIN=12 bash "$script" "$bin" "$src" 2>&1)
    rc=$?
    set -e
    printf '%s\n' "$out"
    bad=0
    ((rc == 1)) || { echo "self-test: exit $rc, expected 1"; bad=1; }
    for want in 'FAIL +bad.md:3 +gapscan --no-such-option x' 'ok +bad.md:3 +gapscan --version' \
        'FAIL +bad.md:5 +gapscan --no-such-option-indented x' \
        'FAIL +bad.md:8 +gapscan --no-such-option-fenced samples/memcached-nagle.log' \
        'ok +bad.md:10 +gapscan formats' 'FAIL +bad.md:14 +gapscan --output jsn' \
        'FAIL +bad.md:18 .*--fail-on likely' 'FAIL +bad.md:20 +gapscan no-such-file.log' \
        'skip +bad.md:22 .*needs no-such-tool-xyz.*\[ran: gapscan -o json samples/memcached-nagle.log <' \
        'FAIL +bad.md:23 +journalctl .*\[ran: gapscan --no-such-option-skipped <' \
        'FAIL +bad.1:4 +gapscan --no-such-option-roff' 'ok +bad.1:5 +gapscan patterns check' \
        '^12 commands: 3 ok, 1 skipped, 8 failed'; do
        grep -Eq -- "$want" <<<"$out" || { echo "self-test: no line matching /$want/"; bad=1; }
    done
    ! grep -q 'this line is output\|not-an-example' <<<"$out" || { echo "self-test: took a non-command"; bad=1; }
    # Too few commands found must fail on its own.
    set +e
    GAPSCAN_DOC_FILES="$st/bad.1" GAPSCAN_DOC_MIN=3 bash "$script" "$bin" "$src" >/dev/null 2>&1
    rc=$?
    set -e
    ((rc == 1)) || { echo "self-test: 2 commands found with a minimum of 3 exited $rc"; bad=1; }
    ((bad == 0)) && echo "self-test: ok"
    exit "$bad"
fi

# ---------------------------------------------------------------------------------------------
# The temporary tree: the source tree without build/ and .git, the binary in two places, and
# the fixtures the docs' example names refer to.
work=$(mktemp -d "${TMPDIR:-/tmp}/gapscan-docs.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
tree=$work/tree
mkdir -p "$tree" "$work/bin" "$work/out"
# (Files may be being edited meanwhile: a file that changes or goes while read is no error.)
(tar -C "$src" --exclude=./build --exclude=./.git --exclude=./out --exclude=./.cache --ignore-failed-read \
    --warning=no-file-changed --warning=no-file-removed -cf - . || true) | tar -C "$tree" -xf -
mkdir -p "$tree/build/release"
ln -s "$bin" "$tree/build/release/gapscan"
ln -s "$bin" "$work/bin/gapscan"
(
    cd "$tree"
    cp samples/memcached-nagle.log app.log
    cp samples/redis-bgsave/client.log.gz samples/redis-bgsave/redis.log .
    gzip -dc client.log.gz >client.log
    mkdir -p var/log/mediawiki
    cp samples/memcached-nagle.log var/log/mediawiki/debug.log
    # A PHP-FPM master log as Debian's php8.2-fpm writes it.
    printf '[29-Nov-2026 21:03:0%d] WARNING: [pool www] child %d exited on signal 15 (SIGTERM) after 12.5 seconds from start\n' \
        1 4243 2 4244 3 4245 4 4246 >var/log/php8.2-fpm.log
    cp -r patterns my-patterns
    # Partial scans for the merge examples (docs/distributed.md): the hosts' and the synopsis's.
    "$bin" scan -q --partial host1.gsp samples/memcached-nagle.log
    "$bin" scan -q --partial host2.gsp samples/memcached-nodelay.log
    cp host1.gsp PARTIAL.gsp
    # What `journalctl -o short-iso-precise` prints for php-fpm workers: one pid per request.
    awk '{ d = $1; t = $2; id = $3; host = $4; $1 = $2 = $3 = $4 = ""; sub(/^ +/, "")
           if (!(id in pid)) pid[id] = 4000 + n++
           printf "%sT%s+00:00 %s php-fpm[%d]: %s %s\n", d, t, host, pid[id], id, $0 }' \
        samples/memcached-nagle.log >journal-short-iso-precise.log
)

# ---------------------------------------------------------------------------------------------
docs=${GAPSCAN_DOC_FILES:-$default_docs}
if [[ -n ${GAPSCAN_DOC_FILES:-} ]]; then min_total=${GAPSCAN_DOC_MIN:-1}; else min_total=${GAPSCAN_DOC_MIN:-$default_min_total}; fi
timeout_s=${GAPSCAN_DOC_TIMEOUT:-300}

list=$work/commands.tsv
: >"$list"
declare -A found_per_doc=()
for pattern in $docs; do
    if [[ $pattern == /* ]]; then
        files=$(compgen -G "$pattern" | LC_ALL=C sort) || true
    else
        files=$(cd "$src" && compgen -G "$pattern" | LC_ALL=C sort) || true
    fi
    [[ -n $files ]] || { echo "FAIL  $pattern: no such doc"; echo "FAIL" >>"$work/failed"; continue; }
    while IFS= read -r f; do
        if [[ $f == /* ]]; then path=$f name=$(basename -- "$f"); else path=$src/$f name=$f; fi
        extract "$path" "$name" >>"$list"
        found_per_doc[$name]=$(grep -c "^$name:" "$list" || true)
    done <<<"$files"
done

fill_placeholders() { # COMMAND -> the command to run
    local c=" $1 " i key val
    for ((i = 0; i < ${#PLACEHOLDERS[@]}; i += 2)); do
        key=${PLACEHOLDERS[i]} val=${PLACEHOLDERS[i + 1]}
        while [[ $c == *"$key "* ]]; do
            if [[ -n $val ]]; then
                c=${c/"$key "/"$val "}
            elif [[ $c == *" $key "* ]]; then
                c=${c/" $key "/" "}
            else
                break
            fi
        done
    done
    for ((i = 0; i < ${#FIXTURE_PATHS[@]}; i += 2)); do
        c=${c//" ${FIXTURE_PATHS[i]}"/" ${FIXTURE_PATHS[i + 1]}"}
    done
    c=${c# }
    printf '%s' "${c% }"
}

# Runs COMMAND in the tree with STDIN; sets rc and leaves the output in $work/out/{stdout,stderr}.
run() { # COMMAND STDIN
    local _
    for _ in 1 2; do
        wait_for_binary
        set +e
        (cd "$tree" && PATH=$work/bin:$PATH timeout "$timeout_s" bash -o pipefail -c "$1" \
            <"$2" >"$work/out/stdout" 2>"$work/out/stderr")
        rc=$?
        set -e
        # 126/127: the binary vanished mid-rebuild; once more.
        [[ $rc == 126 || $rc == 127 ]] && [[ ! -x $bin ]] && continue
        break
    done
}

# Checks the last run against STATUS; prints nothing and returns 0, or sets why and returns 1.
check() { # STATUS
    local msg
    msg=$({ grep -Eim1 '(^|: )usage:|unrecogni[sz]ed|unknown (option|command|argument)|did you mean|gapscan: error' "$work/out/stderr" ||
        grep -Eim1 'unrecogni[sz]ed option|unknown option|did you mean|gapscan: error' "$work/out/stdout"; } || true)
    if [[ $rc != "$1" ]]; then
        if [[ $rc == 124 ]]; then why="timed out after ${timeout_s}s"; else why="exit $rc, documented $1"; fi
        [[ -n $msg ]] || msg=$(grep -m1 . "$work/out/stderr" || true)
        [[ -z $msg ]] || why+=": $msg"
        return 1
    fi
    if [[ -n $msg ]]; then
        why="prints: $msg"
        return 1
    fi
    return 0
}

# Splits a pipeline at its unquoted | (not ||) into the array stages.
split_stages() { # COMMAND
    local s=$1 i c q='' cur=''
    stages=()
    for ((i = 0; i < ${#s}; i++)); do
        c=${s:i:1}
        if [[ -z $q && ($c == "'" || $c == '"') ]]; then
            q=$c
        elif [[ -n $q && $c == "$q" ]]; then
            q=''
        elif [[ -z $q && $c == "\\" ]]; then
            cur+=${s:i:2}
            i=$((i + 1))
            continue
        elif [[ -z $q && $c == '|' ]]; then
            if [[ ${s:i+1:1} == '|' ]]; then
                cur+='||'
                i=$((i + 1))
                continue
            fi
            stages+=("$cur")
            cur=''
            continue
        fi
        cur+=$c
    done
    stages+=("$cur")
}

# The program a pipeline stage runs: its first word after VAR=value assignments.
first_word() { # STAGE
    local w words
    read -ra words <<<"$1"
    for w in "${words[@]}"; do
        [[ $w =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || break
    done
    printf '%s' "${w:-}"
}

declare -A done_rc=() done_at=()
total=0 n_ok=0 n_skip=0 n_fail=0
while IFS=$'\t' read -r where cmd comment; do
    total=$((total + 1))
    show="$(printf '%-24s %s' "$where" "$cmd")"
    # The documented status.
    status=0
    if [[ -n ${EXPECT[$cmd]:-} ]]; then
        status=${EXPECT[$cmd]}
    elif [[ $comment =~ (^|[^a-z])exit(s|s with)?( status)?\ ([0-9]+) ]]; then
        status=${BASH_REMATCH[4]}
    elif [[ $cmd == *--fail-on* ]]; then
        echo "FAIL  $show  -- a --fail-on example needs its exit status (EXPECT table or '# exits N')"
        n_fail=$((n_fail + 1))
        continue
    fi
    # Skipped: the gapscan stage on a fixture.
    skip_reason='' stdin=$tree/samples/memcached-nagle.log
    for ((i = 0; i < ${#SKIPS[@]}; i += 3)); do
        if [[ $cmd =~ ${SKIPS[i]} ]]; then
            skip_reason=${SKIPS[i + 1]}
            stdin=$tree/${SKIPS[i + 2]}
            break
        fi
    done
    torun=$(fill_placeholders "$cmd")
    # A pipeline stage whose program is not installed here (jq, …): skipped like SKIPS.
    split_stages "$torun"
    g=-1 k=-1 absent=''
    for j in "${!stages[@]}"; do
        w=$(first_word "${stages[j]}")
        if [[ $w =~ ^(\./)?(build/release/)?gapscan$ ]]; then
            ((g >= 0)) || g=$j
        elif [[ -z $skip_reason && -z $absent ]] && ! (cd "$tree" && PATH=$work/bin:$PATH command -v -- "$w" >/dev/null); then
            absent=$w k=$j
        fi
    done
    if ((g < 0)); then
        echo "FAIL  $show  -- no pipeline stage runs gapscan (quoting?)"
        n_fail=$((n_fail + 1))
        continue
    fi
    [[ -z $absent ]] || skip_reason="needs $absent, which is not installed here"
    if [[ -n $skip_reason ]]; then
        # The first gapscan stage and what follows it, up to the missing program.
        last=$((${#stages[@]} - 1))
        ((k > g)) && last=$((k - 1))
        torun=''
        for ((j = g; j <= last; j++)); do torun+=${torun:+|}${stages[j]}; done
        torun=${torun# }
        torun=${torun% }
    fi
    # A placeholder left over: the synopsis needs a PLACEHOLDERS entry.
    if [[ " $torun " =~ \ (\[[A-Za-z|-]+\]|(FILE|FOLDER|DIR|ID|COMMAND|LEVEL|GLOB|REGEX|NAME|KEY|ZONE|SECONDS|OUTDIR|N|S|Y)(\|[A-Z-]+)*)(\.\.\.)?\  ]]; then
        echo "FAIL  $show  -- placeholder '${BASH_REMATCH[0]// /}' has no PLACEHOLDERS entry"
        n_fail=$((n_fail + 1))
        continue
    fi
    key="$torun"$'\t'"$stdin"$'\t'"$status"
    if [[ -n ${done_rc[$key]:-} ]]; then
        result=${done_rc[$key]}
        note=" (same as ${done_at[$key]})"
    else
        run "$torun" "$stdin"
        if check "$status"; then result=ok; else result="FAIL$why"; fi
        done_rc[$key]=$result
        done_at[$key]=$where
        note=''
    fi
    ran=''
    [[ $torun != "$cmd" ]] && ran=" [ran: $torun${skip_reason:+ < ${stdin#"$tree"/}}]"
    if [[ $result == ok ]]; then
        if [[ -n $skip_reason ]]; then
            echo "skip  $show  -- $skip_reason; its gapscan stage is ok$ran$note"
            n_skip=$((n_skip + 1))
        else
            echo "ok    $show$ran$note"
            n_ok=$((n_ok + 1))
        fi
    else
        echo "FAIL  $show$ran  -- ${result#FAIL}$note"
        n_fail=$((n_fail + 1))
    fi
done <"$list"

missing=0
[[ -f $work/failed ]] && missing=1
if [[ -z ${GAPSCAN_DOC_FILES:-} ]]; then
    for d in "${!MIN_PER_DOC[@]}"; do
        if ((${found_per_doc[$d]:-0} < MIN_PER_DOC[$d])); then
            echo "FAIL  $d: ${found_per_doc[$d]:-0} commands found, expected at least ${MIN_PER_DOC[$d]} (extraction broken?)"
            missing=1
        fi
    done
fi
echo "$total commands: $n_ok ok, $n_skip skipped, $n_fail failed"
if ((total < min_total)); then
    echo "FAIL  found $total commands, expected at least $min_total (extraction broken?)"
    missing=1
fi
((n_fail == 0 && missing == 0))
