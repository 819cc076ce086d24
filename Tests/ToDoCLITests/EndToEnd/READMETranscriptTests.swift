import Foundation
import TestSupport
import XCTest

@testable import ToDoCLI

/// Runs every `console` transcript in README.md, and in every document it links to (and they
/// link to), with the built binary, each block on a fresh list, and compares what each command
/// prints (standard output and error together, as a terminal shows them) with what the document
/// says. Only ids and creation times, which differ on every run, are masked. The transcripts run
/// offline: those that need a server are shown in `text` blocks. A block that runs another
/// program (Taskwarrior's `task`) is skipped, saying so, where it is not installed.
final class READMETranscriptTests: XCTestCase {
    struct Step {
        var command: String
        var expected: String
    }

    /// A ```console block: where it is, and its steps.
    struct Block {
        var file: String
        var line: Int
        var steps: [Step] = []
    }

    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func test_everyTranscriptInTheREADMEAndTheDocumentsItLinks_isWhatTodoPrints() throws {
        let (files, blocks) = try Self.documents()
        XCTAssertTrue(
            Set(["README.md", "docs/commands.md", "docs/moving-in.md", "docs/import-export.md", "Benchmarks/README.md"])
                .isSubset(of: files),
            "the documents the README links were not followed: \(files)")
        XCTAssertGreaterThan(blocks.map(\.steps.count).reduce(0, +), 60, "the transcripts were not found")
        var skipped: [String] = []
        for block in blocks {
            if let tool = Self.otherPrograms.first(where: { tool in
                block.steps.contains { $0.command.contains(" \(tool) ") } && !Self.isInstalled(tool)
            }) {
                skipped.append("\(block.file):\(block.line) (\(tool) is not installed)")
                continue
            }
            try replay(block)
        }
        if !skipped.isEmpty { throw XCTSkip("skipped the transcripts at " + skipped.joined(separator: ", ")) }
    }

    /// Every `todo <command> … --option` a document shows, in code or a transcript, names an option
    /// the command has (or a global one): `todo history --all` was shown and never existed.
    func test_everyOptionTheDocumentsShow_exists() throws {
        let (files, _) = try Self.documents()
        let globals = Set((GlobalOption.all + [GlobalOption.help]).map(\.name))
        var checked = 0
        for file in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                for usage in Self.commandLines(in: line) {
                    let words = usage.split(separator: " ").map(String.init)
                    guard words.count > 1, let spec = try? CommandRegistry.spec(matching: words[1]) else { continue }
                    for word in words.dropFirst(2) where word.hasPrefix("--") && word.count > 2 {
                        let name = String(word.dropFirst(2).prefix { $0.isLetter || $0 == "-" })
                        XCTAssertTrue(
                            spec.option(named: name) != nil || globals.contains(name),
                            "\(file):\(number + 1): 'todo \(spec.name)' has no option '--\(name)' (\(usage))")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 50, "the documents' options were not found")
    }

    /// The `todo …` command lines of a line of Markdown: each code span that starts with `todo `,
    /// and a transcript's or a shell block's `$ todo …`.
    static func commandLines(in line: String) -> [String] {
        if line.hasPrefix("$ todo ") { return [String(line.dropFirst(2))] }
        if line.hasPrefix("todo ") { return [line] }
        return line.components(separatedBy: "`").enumerated().compactMap { index, part in
            index % 2 == 1 && part.hasPrefix("todo ") ? part : nil
        }
    }

    private func replay(_ block: Block) throws {
        let directory = try TemporaryDirectory()
        let shell = BinaryRunner(
            environment: [
                "TODO_FILE": directory.file("items.json").path, "TZ": "America/New_York",
                "NO_COLOR": "1", "HOME": directory.url.path
            ],
            currentDirectory: directory.url)
        var lastStatus: Int32 = 0
        for step in block.steps {
            let printed: String
            if step.command == "echo $?" {
                printed = "\(lastStatus)\n"
            } else {
                let outcome = try shell.shell("exec 2>&1; " + step.command)
                lastStatus = outcome.status
                printed = outcome.stdout
            }
            XCTAssertEqual(
                Self.masked(printed), Self.masked(step.expected), "\(block.file):\(block.line) $ \(step.command)")
        }
    }

    /// Programs other than todo a transcript may run.
    static let otherPrograms = ["task"]

    static func isInstalled(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { directory in
            FileManager.default.isExecutableFile(atPath: "\(directory)/\(tool)")
        }
    }

    /// README.md and every Markdown file of the repository it links to, and they link to, in the
    /// order met; and their console blocks.
    static func documents() throws -> (files: [String], blocks: [Block]) {
        var files = ["README.md"], blocks: [Block] = [], index = 0
        while index < files.count {
            let file = files[index]
            index += 1
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            blocks += transcriptBlocks(in: text, file: file)
            for link in links(in: text, from: file) where !files.contains(link) { files.append(link) }
        }
        return (files, blocks)
    }

    /// The repository's Markdown files `text` links to (`[x](docs/sync.md#setup)`), as paths from
    /// the root.
    static func links(in text: String, from file: String) -> [String] {
        let base = URL(fileURLWithPath: "/" + file).deletingLastPathComponent()
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)#:]+\.md)(#[^)]*)?\)"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let range = Range(match.range(at: 1), in: text) else { return nil }
            let path = base.appendingPathComponent(String(text[range])).standardized.path
            let relative = String(path.dropFirst())
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path) ? relative : nil
        }
    }

    /// The `$ ` lines of every ```console block, each with the lines after it.
    static func transcriptBlocks(in text: String, file: String) -> [Block] {
        var blocks: [Block] = []
        var inTranscript = false
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                inTranscript = line == "```console"
                if inTranscript { blocks.append(Block(file: file, line: number + 1)) }
            } else if inTranscript, line.hasPrefix("$ ") {
                blocks[blocks.count - 1].steps.append(Step(command: String(line.dropFirst(2)), expected: ""))
            } else if inTranscript, !blocks[blocks.count - 1].steps.isEmpty {
                blocks[blocks.count - 1].steps[blocks[blocks.count - 1].steps.count - 1].expected += line + "\n"
            }
        }
        return blocks
    }

    /// `text` with ids and creation and completion times (and dates) replaced by placeholders.
    static func masked(_ text: String) -> String {
        var text = text
        let patterns = [
            ("(?i)[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}", "<id>"),
            (#"(Created|Completed|Modified):( +)[0-9/: ]+\n"#, "$1:$2<time>\n"),
            (#""(createdAt|completedAt|modifiedAt)": [0-9.]+"#, "\"$1\": <time>"),
            // When `todo history` says a change was made.
            (#"(?m)^([0-9]+  )[0-9/]+ [0-9:]+(  todo )"#, "$1<time>$2"),
            // iCalendar's time stamps, and the dates that open a todo.txt line.
            (#"(DTSTAMP|CREATED|COMPLETED):[0-9]{8}T[0-9]{6}Z"#, "$1:<time>"),
            (#"(?m)^(x )?([0-9]{4}-[0-9]{2}-[0-9]{2} )+"#, "$1<date> ")
        ]
        for (pattern, replacement) in patterns {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }
}
