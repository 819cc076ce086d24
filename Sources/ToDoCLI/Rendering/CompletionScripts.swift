import ToDoCore

/// The shells `todo completion` writes scripts for.
enum Shell: String, CaseIterable, Equatable {
    case bash, zsh, fish
}

/// What a completion script offers, made from the commands' specs so that it always knows every
/// command and option; item numbers come from `todo completion --items` as the user types.
enum CompletionScripts {
    typealias Values = CompletionValues

    static func values(of option: OptionSpec) -> Values {
        resolved(option.completion)
    }

    static func arguments(of command: CommandSpec) -> Values {
        resolved(command.argumentCompletion)
    }

    /// The values with the names of the commands and topics spelled out, which a spec cannot do
    /// itself (the help command's spec is among those it would list).
    private static func resolved(_ values: Values) -> Values {
        guard values == .commandsAndTopics else { return values }
        return .words(CommandRegistry.all.map(\.name) + HelpTopics.all.map(\.name))
    }

    static let globalOptions = [GlobalOption.file, GlobalOption.color, GlobalOption.help]

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return bash()
        case .zsh: return zsh()
        case .fish: return fish()
        }
    }

    /// The options that take a value, as `--due`, each command's own and the global ones.
    private static var valuedOptions: [(command: CommandSpec?, option: OptionSpec)] {
        GlobalOption.valued.map { (nil, $0) }
            + CommandRegistry.all.flatMap { command in
                command.options.filter(\.takesValue).map { (command, $0) }
            }
    }

    /// The arms of a `case "$cmd $prev" in` that completes each option's value with `reply`, the
    /// same in bash and zsh: `"import --format") … ; return ;;`, `*" --file") … ; return ;;`.
    private static func valueCases(_ reply: (Values, OptionSpec) -> String) -> String {
        valuedOptions.map { command, option in
            let pattern = command.map { "\"\($0.name) \(option.flag)\"" } ?? "*\" \(option.flag)\""
            return "        \(pattern)) \(reply(values(of: option), option)); return ;;\n"
        }.joined()
    }

    /// A `case $cmd in` that names each command typed by an alias (`done`, `mod`) by its own
    /// name, the same in bash and zsh, so that `todo done 2<TAB>` completes as `todo check 2<TAB>`.
    private static var aliasCases: String {
        let arms = CommandRegistry.all.filter { !$0.aliases.isEmpty }.map { command in
            "        \(command.aliases.joined(separator: "|"))) cmd=\(command.name) ;;\n"
        }.joined()
        return "    case $cmd in\n" + arms + "    esac\n"
    }

    // MARK: bash

    private static func bash() -> String {
        let valueCases = valueCases { values, _ in bashReply(values) }
        let attributeCommands = CommandRegistry.all.filter { $0.attributeWords != .none }.map(\.name)
            .joined(separator: "|")
        var optionCases = ""
        var argumentCases = ""
        for command in CommandRegistry.all {
            optionCases +=
                "            \(command.name)) words=\"\((command.options + globalOptions).map(\.flag).joined(separator: " "))\" ;;\n"
            let values = arguments(of: command)
            if values != .none { argumentCases += "        \(command.name)) \(bashReply(values)) ;;\n" }
        }
        return """
            # bash completion for todo, made by 'todo completion bash'.
            # Install: todo completion bash > ~/.local/share/bash-completion/completions/todo
            # (or add 'source <(todo completion bash)' to ~/.bashrc).

            # Offers the tags or the lists the items have.
            _todo_names() {
                local file=()
                [[ -n $todo_file ]] && file=(--file "$todo_file")
                local IFS=$'\\n'
                COMPREPLY=($(compgen -W "$(command todo "${file[@]}" completion --items "$1" 2>/dev/null)" -- "$cur"))
            }

            # Offers the items as "number  title" while several match, and the number alone once one does.
            _todo_items() {
                local number title matches=() file=()
                [[ -n $todo_file ]] && file=(--file "$todo_file")
                while IFS=$'\\t' read -r number title; do
                    [[ $number == "$cur"* ]] && matches+=("$number  $title")
                done < <(command todo "${file[@]}" completion --items "$1" 2>/dev/null)
                if ((${#matches[@]} == 1)); then
                    COMPREPLY=("${matches[0]%%  *}")
                else
                    COMPREPLY=("${matches[@]}")
                fi
            }

            # Offers +tag for each tag the items have (a todo.txt @context as it is).
            _todo_tag_words() {
                local tag words=() file=()
                [[ -n $todo_file ]] && file=(--file "$todo_file")
                while IFS= read -r tag; do
                    if [[ $tag == @* ]]; then words+=("$tag"); else words+=("+$tag"); fi
                done < <(command todo "${file[@]}" completion --items tags 2>/dev/null)
                local IFS=$'\n'
                COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
            }

            # Offers project:NAME (or pro:NAME) for each project the items have. bash splits the word
            # at its colon: the word is read whole from the line, and each reply given from where
            # bash's word begins.
            _todo_project_words() {
                local word=$cur
                if [[ -n $COMP_LINE ]]; then word=${COMP_LINE:0:COMP_POINT}; word=${word##*[[:space:]]}; fi
                [[ $word == *:* ]] || return 1
                local name=${word%%:*}
                [[ ${#name} -ge 3 && project == "$name"* ]] || return 1
                local project candidates=() file=()
                [[ -n $todo_file ]] && file=(--file "$todo_file")
                while IFS= read -r project; do
                    [[ $name:$project == "$word"* ]] && candidates+=("$name:$project")
                done < <(command todo "${file[@]}" completion --items projects 2>/dev/null)
                local before=${word%"$cur"}
                COMPREPLY=("${candidates[@]#"$before"}")
            }

            _todo() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                local cmd="" todo_file="" words i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case ${COMP_WORDS[i]} in
                        --file) todo_file=${COMP_WORDS[i+1]}; ((i++)) ;;
                        --color) ((i++)) ;;
                        -*) ;;
                        # Taskwarrior's order: the items before their command (todo 3 done).
                        [0-9]*) [[ -z $cmd && ${COMP_WORDS[i]} =~ ^[0-9][0-9,-]*$ ]] || { [[ -z $cmd ]] && cmd=${COMP_WORDS[i]}; } ;;
                        *) [[ -z $cmd ]] && cmd=${COMP_WORDS[i]} ;;
                    esac
                done
            \(aliasCases)    case "$cmd $prev" in
            \(valueCases)    esac
                if [[ -z $cmd ]]; then
                    if [[ $cur == -* ]]; then words="\((globalOptions + [GlobalOption.version]).map(\.flag).joined(separator: " "))"
                    else words="\(CommandRegistry.all.map(\.name).joined(separator: " "))"; fi
                    COMPREPLY=($(compgen -W "$words" -- "$cur"))
                    return
                fi
                if [[ $cur == -* ]]; then
                    case $cmd in
            \(optionCases)            *) words="\(globalOptions.map(\.flag).joined(separator: " "))" ;;
                    esac
                    COMPREPLY=($(compgen -W "$words" -- "$cur"))
                    return
                fi
                # Taskwarrior's words among the words of the commands that read them.
                case $cmd in
                    \(attributeCommands))
                        if [[ $cur == [+@]* ]]; then _todo_tag_words; return; fi
                        _todo_project_words && return ;;
                esac
                case $cmd in
            \(argumentCases)    esac
            }

            # Offered in the order given (item numbers as numbers), where bash can (4.4 and later).
            complete -o nosort -F _todo todo 2>/dev/null || complete -F _todo todo

            """
    }

    private static func bashReply(_ values: Values) -> String {
        switch values {
        case .none, .commandsAndTopics: return "COMPREPLY=()"
        case .files: return "COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .items(let section): return "_todo_items \(sectionName(section))"
        case .words(let words): return "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
        case .names(let kind): return "_todo_names \(kind.rawValue)"
        }
    }

    private static func sectionName(_ section: ListSection) -> String {
        switch section {
        case .all: return "all"
        case .open: return "open"
        case .done: return "done"
        }
    }

    // MARK: zsh

    private static func zsh() -> String {
        let valueCases = valueCases { values, option in zshReply(values, what: option.valueName ?? "value") }
        var optionCases = ""
        var argumentCases = ""
        for command in CommandRegistry.all {
            optionCases +=
                "            \(command.name)) options=(\(zshDescribed(command.options.map { ($0.flag, $0.help) })) ) ;;\n"
            let values = arguments(of: command)
            if values != .none {
                argumentCases +=
                    "        \(command.name)) \(zshReply(values, what: command.arguments.first?.name ?? "argument")) ;;\n"
            }
        }
        return """
            #compdef todo
            # zsh completion for todo, made by 'todo completion zsh'.
            # Install: todo completion zsh > "${fpath[1]}/_todo" (any folder in fpath), then start a new shell
            # (or add 'source <(todo completion zsh)' to ~/.zshrc after compinit).

            # The tags or the lists the items have.
            _todo_names() {
                local -a file
                local index=${words[(I)--file]}
                (( index )) && file=(--file "${words[index+1]}")
                compadd -- ${(f)"$(command todo $file completion --items $1 2>/dev/null)"}
            }

            # The items as "number:title", described by their titles.
            _todo_items() {
                local -a items file
                local line index=${words[(I)--file]}
                (( index )) && file=(--file "${words[index+1]}")
                for line in "${(@f)$(command todo $file completion --items $1 2>/dev/null)}"; do
                    [[ -n $line ]] && items+=("${line%%$'\\t'*}:${line#*$'\\t'}")
                done
                _describe -t items 'item' items
            }

            _todo() {
                local cmd="" prev=${words[CURRENT-1]} i
                local -a options
                for (( i = 2; i < CURRENT; i++ )); do
                    case ${words[i]} in
                        --file|--color) (( i++ )) ;;
                        -*) ;;
                        *) [[ -z $cmd ]] && cmd=${words[i]} ;;
                    esac
                done
            \(aliasCases)    case "$cmd $prev" in
            \(valueCases)    esac
                if [[ -z $cmd ]]; then
                    if [[ $PREFIX == -* ]]; then
                        options=(\(zshDescribed((globalOptions + [GlobalOption.version]).map { ($0.flag, $0.help) })) )
                        _describe -t options 'option' options
                    else
                        local -a commands=(\(zshDescribed(CommandRegistry.all.map { ($0.name, $0.summary) })) )
                        _describe -t commands 'command' commands
                    fi
                    return
                fi
                if [[ $PREFIX == -* ]]; then
                    case $cmd in
            \(optionCases)        esac
                    options+=(\(zshDescribed(globalOptions.map { ($0.flag, $0.help) })) )
                    _describe -t options 'option' options
                    return
                fi
                case $cmd in
            \(argumentCases)    esac
            }

            if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
                _todo "$@"
            else
                compdef _todo todo
            fi

            """
    }

    /// `'name:text' …` quoted for zsh; colons in a name are escaped, as `_describe` reads them.
    private static func zshDescribed(_ pairs: [(String, String)]) -> String {
        pairs.map { name, text in
            " " + shellQuoted(name.replacingText(":", with: "\\:") + ":" + text)
        }.joined()
    }

    private static func zshReply(_ values: Values, what: String) -> String {
        switch values {
        case .none, .commandsAndTopics: return "_message \(shellQuoted(what))"
        case .files: return "_files"
        case .items(let section): return "_todo_items \(sectionName(section))"
        case .words(let words): return "compadd -- \(words.joined(separator: " "))"
        case .names(let kind): return "_todo_names \(kind.rawValue)"
        }
    }

    // MARK: fish

    private static func fish() -> String {
        var lines = """
            # fish completion for todo, made by 'todo completion fish'.
            # Install: todo completion fish > ~/.config/fish/completions/todo.fish

            # The command given so far, skipping global options and their values; one typed by
            # an alias (done, mod) by its own name.
            function __todo_command
                set -l tokens (commandline -opc)
                set -e tokens[1]
                while set -q tokens[1]
                    switch $tokens[1]
                        case --file --color
                            set -e tokens[1]
                        case '-*'
            \(fishAliasCases)            case '*'
                            echo $tokens[1]
                            return 0
                    end
                    set -e tokens[1]
                end
                return 1
            end

            function __todo_using
                contains -- (__todo_command) $argv
            end

            # "number<tab>title" for each item: fish shows the title beside the number.
            function __todo_items
                set -l tokens (commandline -opc)
                set -l file
                if set -l index (contains -i -- --file $tokens)
                    set file --file $tokens[(math $index + 1)]
                end
                command todo $file completion --items $argv[1] 2>/dev/null
            end

            complete -c todo -f

            """
        for command in CommandRegistry.all {
            lines += "complete -c todo -n 'not __todo_command' -a \(command.name) -d \(shellQuoted(command.summary))\n"
        }
        for option in globalOptions + [GlobalOption.version] {
            let condition = option.name == "version" ? " -n 'not __todo_command'" : ""
            lines += "complete -c todo\(condition)\(fishOption(option, values: values(of: option)))\n"
        }
        for command in CommandRegistry.all {
            for option in command.options {
                lines +=
                    "complete -c todo -n '__todo_using \(command.name)'\(fishOption(option, values: values(of: option)))\n"
            }
            switch arguments(of: command) {
            case .none, .commandsAndTopics: break
            case .files: lines += "complete -c todo -n '__todo_using \(command.name)' -F\n"
            case .items(let section):
                lines +=
                    "complete -c todo -n '__todo_using \(command.name)' -a '(__todo_items \(sectionName(section)))'\n"
            case .words(let words):
                lines +=
                    "complete -c todo -n '__todo_using \(command.name)' -a \(shellQuoted(words.joined(separator: " ")))\n"
            case .names(let kind):
                lines += "complete -c todo -n '__todo_using \(command.name)' -a '(__todo_items \(kind.rawValue))'\n"
            }
        }
        return lines
    }

    /// The arms of `__todo_command`'s switch that name a command typed by an alias.
    private static var fishAliasCases: String {
        CommandRegistry.all.filter { !$0.aliases.isEmpty }.map { command in
            "            case \(command.aliases.joined(separator: " "))\n                echo \(command.name)\n                return 0\n"
        }.joined()
    }

    private static func fishOption(_ option: OptionSpec, values: Values) -> String {
        var text = option.name == "help" ? " -s h -l help" : " -l \(option.name)"
        if option.takesValue {
            switch values {
            case .files: text += " -r -F"
            case .words(let words): text += " -x -a \(shellQuoted(words.joined(separator: " ")))"
            case .names(let kind): text += " -x -a '(__todo_items \(kind.rawValue))'"
            case .none, .items, .commandsAndTopics: text += " -x"
            }
        }
        return text + " -d \(shellQuoted(option.help))"
    }

    /// A word in single quotes, read the same by bash, zsh and fish: a quote inside is closed,
    /// given in double quotes, and reopened.
    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingText("'", with: #"'"'"'"#) + "'"
    }
}
