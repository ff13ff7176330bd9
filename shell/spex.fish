# fish completion for spex and sessions. `source` it from
# ~/.config/fish/config.fish (`make install` prints the line), or copy it into
# ~/.config/fish/completions/spex.fish (and sessions.fish).
function __spex_complete
    set -l words (commandline -opc)[2..-1] (commandline -ct)
    if test (basename (commandline -opc)[1]) = sessions
        set words session $words
    end
    spex internal complete -- $words 2>/dev/null
end
complete -c spex -f -a '(__spex_complete)'
complete -c sessions -f -a '(__spex_complete)'
