import Foundation
import TestSupport
import XCTest

@testable import ToDoCLI

/// `todo completion bash|zsh|fish`: each script loads in its shell and completes commands,
/// options, option values and item numbers with their titles, asking the real `todo` for items.
/// bash is always there; zsh and fish are tested where installed (`.ci/run` installs them).
final class CompletionTests: BinaryTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        for title in ["Call Mom", "Pay: rent's due", "Buy milk"] {
            XCTAssertEqual(try todo.run(["add", title]).status, 0)
        }
        XCTAssertEqual(try todo.run(["check", "3"]).status, 0)
        XCTAssertEqual(try todo.run(["edit", "1", "--tag", "phone", "--tag", "family"]).status, 0)
        XCTAssertEqual(try todo.run(["edit", "3", "--tag", "Errand"]).status, 0)
        XCTAssertEqual(try todo.run(["edit", "2", "--list", "Work stuff"]).status, 0)
    }

    private func script(_ shell: String) throws -> String {
        let outcome = try todo.run(["completion", shell])
        XCTAssertEqual(outcome.status, 0)
        let path = directory.file("completion.\(shell)").path
        try Data(outcome.stdout.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func installedShell(_ name: String) throws -> String {
        guard
            let path = ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first(
                where: FileManager.default.isExecutableFile)
        else { throw XCTSkip("\(name) is not installed") }
        return path
    }

    func test_itemsForCompletion_areNumberTabTitle() throws {
        XCTAssertEqual(try todo.run(["completion", "--items", "open"]).stdout, "1\tCall Mom\n2\tPay: rent's due\n")
        XCTAssertEqual(try todo.run(["completion", "--items", "done"]).stdout, "3\tBuy milk\n")
        XCTAssertEqual(try todo.run(["completion", "--items", "all"]).stdout.split(separator: "\n").count, 3)
        XCTAssertEqual(
            try todo.run(["completion", "--items", "tags"]).stdout, "Errand\nfamily\nphone\n",
            "every item's, once, in order")
        XCTAssertEqual(try todo.run(["completion", "--items", "lists"]).stdout, "default\nWork stuff\n")
        XCTAssertEqual(try todo.run(["completion", "tcsh"]).status, 64)
        XCTAssertEqual(try todo.run(["completion", "--items", "some"]).status, 64)
        XCTAssertEqual(try todo.run(["completion"]).status, 64)
    }

    func test_bash_completesCommandsOptionsValuesAndItems() throws {
        let path = try script("bash")
        /// What the script offers for `words`, the last being completed; `line`, the line as typed
        /// when bash split it at a colon.
        func complete(_ words: [String], line: String? = nil) throws -> [String] {
            func quoted(_ text: String) -> String { "'\(text.replacingOccurrences(of: "'", with: #"'\''"#))'" }
            let array = words.map(quoted).joined(separator: " ")
            let typed = line.map { "COMP_LINE=\(quoted($0)); COMP_POINT=\($0.utf8.count);" } ?? ""
            let outcome = try todo.run(
                program: "/bin/bash",
                [
                    "-c",
                    """
                    source '\(path)' && complete -p todo >/dev/null || exit 9
                    \(typed) COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _todo
                    printf '%s\\n' "${COMPREPLY[@]}"
                    """
                ])
            XCTAssertEqual(outcome.status, 0, "\(outcome)")
            XCTAssertEqual(outcome.stderr, "")
            return outcome.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try complete(["todo", "ch"]), ["check"])
        XCTAssertEqual(
            try complete(["todo", "check", ""]), ["1  Call Mom", "2  Pay: rent's due"], "several: with titles")
        XCTAssertEqual(
            try complete(["todo", "done", ""]), ["1  Call Mom", "2  Pay: rent's due"],
            "an alias completes as its command")
        XCTAssertEqual(try complete(["todo", "mod", "1", "--pri"]), ["--priority"])
        XCTAssertEqual(try complete(["todo", "uncheck", ""]), ["3"], "one: the number alone")
        XCTAssertEqual(try complete(["todo", "list", "--so"]), ["--sort"])
        XCTAssertEqual(
            try complete(["todo", "list", "--sort", ""]), ["number", "due", "title", "created", "priority", "project"])
        XCTAssertEqual(try complete(["todo", "list", "--tag", ""]), ["Errand", "family", "phone"])
        XCTAssertEqual(try complete(["todo", "edit", "1", "--untag", "p"]), ["phone"])
        XCTAssertEqual(
            try complete(["todo", "list", "--list", ""]), ["default", "Work stuff"], "a name with a space is one")
        XCTAssertEqual(try complete(["todo", "edit", "1", "--list", "W"]), ["Work stuff"])
        XCTAssertEqual(try complete(["todo", "add", "x", "--priority", ""]), ["high", "medium", "low"])
        XCTAssertEqual(try complete(["todo", "import", "--format", "t"]), ["todotxt", "taskwarrior"])
        XCTAssertEqual(try complete(["todo", "export", "--format", ""]), ["json", "todotxt", "ical", "taskwarrior"])
        XCTAssertEqual(try complete(["todo", "add", "x", "--due", "to"]), ["today", "tomorrow"])
        XCTAssertEqual(try complete(["todo", "help", "ex"]), ["export", "exit-codes"])
        XCTAssertEqual(try complete(["todo", "--ver"]), ["--version"])
        XCTAssertEqual(try complete(["todo", "edit", "1", "--title", ""]), [], "free text: nothing to offer")
        XCTAssertEqual(
            try complete(["todo", "--file", directory.file("other.json").path, "show", ""]), [], "the list --file names"
        )
        // Taskwarrior's words: +tag (a todo.txt @context as it is) and project:, from the items.
        XCTAssertEqual(try todo.run(["edit", "2", "project:home.garden", "@office"]).status, 0)
        XCTAssertEqual(try complete(["todo", "list", "+"]), ["+Errand", "+family", "+phone"])
        XCTAssertEqual(try complete(["todo", "add", "x", "+f"]), ["+family"])
        XCTAssertEqual(try complete(["todo", "mod", "1", "@"]), ["@office"])
        XCTAssertEqual(try complete(["todo", "list", "project:h"]), ["project:home", "project:home.garden"])
        XCTAssertEqual(try complete(["todo", "next", "pro:home."]), ["pro:home.garden"])
        XCTAssertEqual(
            try complete(["todo", "list", "project", ":", "ho"], line: "todo list project:ho"), ["home", "home.garden"],
            "bash's word after the colon")
        XCTAssertEqual(
            try complete(["todo", "list", "project", ":"], line: "todo list project:"), [":home", ":home.garden"])
        // The items first, as Taskwarrior orders them: the command after them, and its words.
        XCTAssertEqual(try complete(["todo", "1", "ed"]), ["edit"])
        XCTAssertEqual(try complete(["todo", "1", "modify", "+f"]), ["+family"])
        XCTAssertEqual(try complete(["todo", "1,2", "done", "--js"]), ["--json"])
        // Item numbers in their order, not as text (bash 4.4 and later keep the order given).
        XCTAssertEqual(try todo.run(["add", "-"], input: Data((4...11).map { "Item \($0)\n" }.joined().utf8)).status, 0)
        XCTAssertEqual(
            try complete(["todo", "show", ""]).map { String($0.prefix { $0 != " " }) }, (1...11).map(String.init))
        XCTAssertTrue(
            try todo.run(program: "/bin/bash", ["-c", "source '\(path)' && complete -p todo"]).stdout.contains("nosort")
        )
    }

    func test_zsh_loadsThroughCompinit_andCompletesWithDescriptions() throws {
        let zsh = try installedShell("zsh")
        let path = try script("zsh")
        let loaded = try todo.run(
            program: zsh,
            [
                "-fc",
                """
                autoload -U compinit && compinit -u -d '\(directory.file("zcompdump").path)' && source '\(path)' && print -r -- $_comps[todo]
                """
            ])
        XCTAssertEqual(loaded, Outcome(status: 0, stdout: "_todo\n", stderr: ""))

        // The completion system's functions are stood in for, to see what the script hands them.
        func complete(_ words: [String], prefix: String = "") throws -> String {
            let array = words.map { "'\($0.replacingOccurrences(of: "'", with: #"'\''"#))'" }.joined(separator: " ")
            let outcome = try todo.run(
                program: zsh,
                [
                    "-fc",
                    """
                    compdef() { }
                    source '\(path)'
                    _describe() { print -r -- "$3: ${(j:|:)${(P)4}}"; }
                    compadd() { print -r -- "words: ${(j: :)@[2,-1]}"; }
                    _files() { print files; }
                    _message() { print -r -- "message: $1"; }
                    words=(\(array)); CURRENT=\(words.count); PREFIX='\(prefix)'; _todo
                    """
                ])
            XCTAssertEqual(outcome.status, 0, "\(outcome)")
            XCTAssertEqual(outcome.stderr, "")
            return outcome.stdout
        }
        XCTAssertEqual(try complete(["todo", "check", ""]), "item: 1:Call Mom|2:Pay: rent's due\n")
        XCTAssertEqual(
            try complete(["todo", "done", ""]), "item: 1:Call Mom|2:Pay: rent's due\n",
            "an alias completes as its command")
        XCTAssertEqual(try complete(["todo", "uncheck", ""]), "item: 3:Buy milk\n")
        XCTAssertTrue(
            try complete(["todo", ""]).hasPrefix(
                "command: add:Add an open item.|list:List open items, then done items.|"))
        XCTAssertTrue(
            try complete(["todo", "list", "--s"], prefix: "--s").contains(
                "|--sort:Sort open and done items each by number, due, title, created, priority (high first) or project.|"
            ))
        XCTAssertEqual(
            try complete(["todo", "list", "--sort", ""]), "words: number due title created priority project\n")
        XCTAssertEqual(try complete(["todo", "add", "x", "--tag", ""]), "words: Errand family phone\n")
        XCTAssertEqual(try complete(["todo", "lists", "remove", "x", "--to", ""]), "words: default Work stuff\n")
        XCTAssertEqual(try complete(["todo", "import", ""]), "files\n")
        XCTAssertEqual(try complete(["todo", "edit", "1", "--title", ""]), "message: title\n")
    }

    func test_fish_completesWithDescriptions() throws {
        let fish = try installedShell("fish")
        let path = try script("fish")
        func complete(_ line: String) throws -> String {
            let outcome = try todo.run(program: fish, ["--no-config", "-c", "source '\(path)'; complete -C'\(line)'"])
            XCTAssertEqual(outcome.status, 0, "\(outcome)")
            XCTAssertEqual(outcome.stderr, "")
            return outcome.stdout
        }
        XCTAssertEqual(try complete("todo ch"), "check\tMark items done.\n")
        XCTAssertEqual(try complete("todo check "), "1\tCall Mom\n2\tPay: rent's due\n")
        XCTAssertEqual(
            try complete("todo done "), "1\tCall Mom\n2\tPay: rent's due\n", "an alias completes as its command")
        XCTAssertEqual(try complete("todo uncheck "), "3\tBuy milk\n")
        XCTAssertEqual(try complete("todo --file \(directory.file("other.json").path) show "), "")
        XCTAssertEqual(
            try complete("todo list --so"),
            "--sort\tSort open and done items each by number, due, title, created, priority (high first) or project.\n")
        XCTAssertEqual(
            try complete("todo list --tag f"),
            "family\tOnly items with this tag (any case); repeated, with every one.\n")
        XCTAssertEqual(
            try complete("todo list --list W"),
            "Work stuff\tOnly items of this list ('default' for the default list).\n")
        XCTAssertEqual(
            try complete("todo add x --priority h"),
            "high\t\(CommonOptions.priority.help)\n")
        XCTAssertEqual(
            try complete("todo export --format i"),
            "ical\tjson (the data file's format; the default), todotxt, ical or taskwarrior (what task import reads).\n"
        )
        XCTAssertEqual(try complete("todo --ver"), "--version\tShow the version.\n")
    }

    func test_everyScript_namesEveryCommandAndOption() {
        for shell in Shell.allCases {
            let script = CompletionScripts.script(for: shell)
            for command in CommandRegistry.all {
                XCTAssertTrue(script.contains(command.name), "\(shell) \(command.name)")
                for option in command.options {
                    XCTAssertTrue(
                        script.contains(shell == .fish ? "-l \(option.name) " : option.flag),
                        "\(shell) \(command.name) \(option.flag)")
                }
            }
        }
    }
}
