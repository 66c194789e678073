# bash completion for gapscan; installed as share/bash-completion/completions/gapscan.
_gapscan() {
    local cur prev words cword
    _init_completion || return

    local commands="scan merge events causes patterns formats help"
    local scan_options="--help --output --patterns --group-by --idle-timeout --format-file --include
        --exclude --year --tz --jobs --color --report --follow --partial --quiet --explain --derived-streams --fail-on --trigger --version"
    local events_options="--help --output --group-by --format-file --include --exclude --year --tz"
    local presets="nginx-combined nginx-main nginx-cache apache-combined apache-combined-time varnishncsa
        varnishncsa-cache"

    # The command: the first word that is one, else scan.
    local command=scan i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            scan | merge | events | causes | patterns | formats | help) command=${words[i]}; break ;;
            -*) ;;
            *) break ;;
        esac
    done

    case $prev in
        -o | --output) COMPREPLY=($(compgen -W "text json markdown html" -- "$cur")); return ;;
        --report | --partial) _filedir; return ;;
        --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
        --patterns) _filedir -d; return ;;
        --format-file) COMPREPLY=($(compgen -W "$presets" -- "$cur")); _filedir toml; return ;;
        --fail-on) COMPREPLY=($(compgen -W "likely possible" -- "$cur")); return ;;
        --group-by) COMPREPLY=($(compgen -W "auto none" -- "$cur")); return ;;
        --tz) COMPREPLY=($(compgen -W "UTC" -- "$cur")); return ;;
        --idle-timeout | --year | --jobs | -j | --trigger | --include | --exclude) return ;;
    esac

    case $command in
        patterns)
            if [[ $prev == patterns ]]; then
                COMPREPLY=($(compgen -W "check test list" -- "$cur"))
            else
                _filedir -d
            fi
            return ;;
        causes)
            if [[ $cur != -* ]]; then
                COMPREPLY=($(compgen -W "$(gapscan causes 2>/dev/null | awk 'NR > 1 && $1 ~ /^[a-z0-9_]+$/ { print $1 }')" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "--help --patterns" -- "$cur"))
            fi
            return ;;
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
        formats) return ;;
        events)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$events_options" -- "$cur")); else _filedir; fi
            return ;;
        merge)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$scan_options" -- "$cur")); else _filedir gsp; fi
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$scan_options" -- "$cur"))
    elif [[ $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        _filedir
    else
        _filedir
    fi
}
complete -F _gapscan gapscan
