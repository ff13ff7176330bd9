# fish completion for spex and sessions. `source` it from
# ~/.config/fish/config.fish (`make install` prints the line), or copy it into
# ~/.config/fish/completions/spex.fish (and sessions.fish).
function __spex_complete
    set -l words (commandline -opc)[2..-1] (commandline -ct)
    if test (basename (commandline -opc)[1]) = sessions
        set words session $words
    end
    # A Tab's run is short: JavaScriptCore's JIT and its heap warm-up thread
    # only cost it CPU; JSC reads these from the environment alone (bench/README.md).
    set -lx BUN_JSC_useWarmUpMarkedBlocks 0
    set -lx BUN_JSC_useJIT 0
    spex internal complete -- $words 2>/dev/null
end
complete -c spex -f -a '(__spex_complete)'
complete -c sessions -f -a '(__spex_complete)'
