import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import ToDoStorage
import XCTest

@testable import ToDoCLI

/// Seeded, repeatable fuzzing of the argument parser, the whole command line, the JSON reader and
/// the store: thousands of random and mutated inputs, none of which may trap or hang, each failure
/// a clean error. A failing case can be run again from its seed and index.
final class FuzzTests: XCTestCase {
    // MARK: Arguments

    static let words: [String] = {
        var words =
            CommandRegistry.all.map(\.name) + ["lst", "ad", "-", "--", "-h", "--help", "--version", "=", "--=", "---"]
        for option in CommandRegistry.all.flatMap(\.options) + [GlobalOption.color] {
            words += [option.flag, option.flag + "=", option.flag + "=x"]
        }
        words += [
            "01/10/22", "13/45/22", "2022-02-29", "2024-02-29 23:59", "today", "tomorrow", "fri", "+3d", "+2w", "+0d",
            "0001-01-01", "9999-12-31", "banana", "1", "2", "3", "0", "-1", "007", "abcd", "ABCD-",
            "99999999999999999999",
            "52.5,13.4", "91,0", "nan,1", "1,", ",", "auto", "always", "never", "Call Mom", "", " ", "\t"
        ]
        return words
    }()

    static func randomString(_ random: inout SeededGenerator) -> String {
        let pools: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x30...0x39, 0x00...0x1F, 0x7F...0x9F, 0x5D0...0x5EA,
            0x1F300...0x1F64F, 0x300...0x36F, 0x2028...0x202E, 0x4E00...0x4E20
        ]
        return random.text(from: pools, maximumLength: 12)
    }

    static func randomArguments(_ random: inout SeededGenerator) -> [String] {
        (0..<Int.random(in: 0...7, using: &random)).map { _ in
            Int.random(in: 0..<4, using: &random) == 0 ? randomString(&random) : words.randomElement(using: &random)!
        }
    }

    func test_parser_neverTrapsOnRandomArguments() {
        var random = SeededGenerator(seed: 1)
        let now = Date(timeIntervalSince1970: 1_795_361_400), zone = TimeZone(identifier: "UTC")!
        let parser = CommandParser { DueDateParser(now: now, timeZone: zone) }
        var parsed = 0
        for _ in 0..<20_000 {
            let arguments = Self.randomArguments(&random)
            if let invocation = try? parser.parse(arguments) {
                parsed += 1
                XCTAssertEqual(try? parser.parse(arguments), invocation, "\(arguments)")
            }
        }
        XCTAssertGreaterThan(parsed, 500, "the generator should reach valid commands too")
    }

    func test_commandLine_answersRandomArgumentsWithADocumentedCodeAndNeverHarmsTheFile() throws {
        var random = SeededGenerator(seed: 2)
        let todo = try Harness()
        todo.succeed("add", "-", input: "Call Mom\nBuy milk\nPay rent\n")
        todo.succeed("check", "2")
        let documented = Set(ExitCode.allCases.map(\.rawValue))
        var statuses: [Int32: Int] = [:]
        for index in 0..<3_000 {
            let arguments = Self.randomArguments(&random)
            let input = Array(Self.randomString(&random).utf8) + [0x0A] + Array(Self.randomString(&random).utf8)
            let outcome = todo.run(arguments, input: input)
            statuses[outcome.status, default: 0] += 1
            let label = "case \(index): \(arguments)"
            XCTAssertTrue(documented.contains(outcome.status), "\(label): \(outcome)")
            if outcome.status != 0 {
                XCTAssertEqual(outcome.stdout, "", label)
                XCTAssertTrue(outcome.stderr.hasPrefix("Error: "), "\(label): \(outcome)")
            }
            XCTAssertFalse(
                outcome.stdout.unicodeScalars.contains { $0.value == 0x1B }, "\(label): raw escape on stdout")
            if todo.fileContents != nil {
                XCTAssertNoThrow(try JSONFileStore(fileURL: todo.fileURL).load(), label)
            }
        }
        XCTAssertGreaterThan(statuses[0] ?? 0, 100, "\(statuses)")
        XCTAssertGreaterThan(statuses[64] ?? 0, 100, "\(statuses)")
    }

    // MARK: JSON

    static let sampleDocument: [UInt8] = {
        var manager = ItemManager()
        let items = [
            ToDoItem(
                title: "Call Mom", itemDescription: "About \"Sunday\"\nand the trip", timestamp: 1_641_772_800,
                location: Location(
                    name: "Home", address: "Main St 1", coordinate: Coordinate(latitude: 52.5, longitude: -13.4))),
            ToDoItem(title: "שלום 🎉 e\u{301}"), ToDoItem(title: "\u{1}\u{1B}[31m", timestamp: -62_135_596_800)
        ]
        for item in items { _ = try! manager.add(item) }
        manager.checkItem(at: 1)
        return JSONValue.object(
            {
                var object = JSONObject()
                object["version"] = .number(1)
                object["nextNumber"] = .number(4)
                object["items"] = .array(manager.allItems.map(\.json))
                object["extra"] = .array([.null, .bool(true), .number("1e-7"), .object(JSONObject())])
                return object
            }()
        ).serialized()
    }()

    static func mutated(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !bytes.isEmpty else { break }
            let position = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &random)
            case 2: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...20, using: &random)))
            case 3:
                bytes.insert(contentsOf: Array("{}[]\",:\\0-e.".utf8).shuffled(using: &random).prefix(3), at: position)
            case 4: bytes.removeSubrange(position...)
            default:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            }
        }
        return bytes
    }

    func test_jsonReader_neverTrapsOnMutatedDocumentsAndRoundTripsWhatItAccepts() {
        var random = SeededGenerator(seed: 3)
        var accepted = 0
        for index in 0..<5_000 {
            let bytes = Self.mutated(Self.sampleDocument, &random)
            do {
                let value = try JSONValue(parsing: bytes)
                accepted += 1
                XCTAssertEqual(try? JSONValue(parsing: value.serialized()), value, "case \(index)")
            } catch {
                XCTAssertTrue((0...bytes.count).contains(error.byteOffset), "case \(index): \(error)")
                XCTAssertGreaterThanOrEqual(error.line, 1)
                XCTAssertGreaterThanOrEqual(error.column, 1)
            }
        }
        XCTAssertGreaterThan(accepted, 100, "some mutations should still be JSON")
    }

    static func randomValue(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(Double.random(in: -1e9...1e9, using: &random))
        case 3: return .string(randomString(&random))
        case 4:
            return .array(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                object[randomString(&random)] = randomValue(&random, depth: depth + 1)
            }
            return .object(object)
        }
    }

    func test_jsonWriterAndReader_roundTripRandomValues() {
        var random = SeededGenerator(seed: 4)
        for index in 0..<2_000 {
            let value = Self.randomValue(&random)
            XCTAssertEqual(try? JSONValue(parsing: value.serialized()), value, "case \(index)")
            XCTAssertEqual(try? JSONValue(parsing: value.serializedCompactly()), value, "case \(index)")
        }
    }

    // MARK: The store

    func test_store_refusesMutatedFilesWithoutChangingThemOrAcceptsThemWhole() throws {
        var random = SeededGenerator(seed: 5)
        let directory = try TemporaryDirectory()
        let file = directory.file("items.json")
        var outcomes: [String: Int] = [:]
        for index in 0..<1_000 {
            let bytes = Self.mutated(Self.sampleDocument, &random)
            try Data(bytes).write(to: file)
            do {
                let added = try JSONFileStore(fileURL: file, lockTimeout: 1).update {
                    try $0.add(ToDoItem(title: "New \(index)"))
                }
                let reloaded = try JSONFileStore(fileURL: file).load()
                XCTAssertEqual(reloaded.item(withNumber: added.number)?.title, "New \(index)", "case \(index)")
                outcomes["accepted", default: 0] += 1
            } catch let error as StoreError {
                XCTAssertEqual(Array(try Data(contentsOf: file)), bytes, "case \(index): \(error)")
                XCTAssertTrue(String(describing: error).contains(file.path), "case \(index): \(error)")
                outcomes[error.isUnreadableFile ? "unreadable" : "other", default: 0] += 1
            } catch let error as ItemManagerError {
                // A mutated next number can leave no number to give; nothing changes either way.
                XCTAssertEqual(Array(try Data(contentsOf: file)), bytes, "case \(index): \(error)")
                outcomes["refused", default: 0] += 1
            }
        }
        XCTAssertEqual(outcomes["other"], nil, "\(outcomes)")
        XCTAssertGreaterThan(outcomes["accepted"] ?? 0, 10, "\(outcomes)")
        XCTAssertEqual(try directory.contents(), storeFiles())
    }

    // MARK: The history

    /// Number literals that no history todo writes holds: out of every range, or not integers.
    static let hostileNumbers = [
        "1e30", "-1e30", "1e308", "-1", "0", "99999999999999999999", "9223372036854775807",
        "-9223372036854775808", "0.5", "-0", "1E400", "253402387200"
    ]

    /// `mutated`, or a number literal in the line replaced by a hostile one.
    static func mutatedHistory(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        guard Bool.random(using: &random) else { return mutated(bytes, &random) }
        var bytes = bytes
        let digits = bytes.indices.filter {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) && bytes[$0 - 1] == UInt8(ascii: ":")
        }
        guard let start = digits.randomElement(using: &random) else { return bytes }
        var end = start
        while end < bytes.count,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) || bytes[end] == UInt8(ascii: ".")
        { end += 1 }
        bytes.replaceSubrange(start..<end, with: Array(hostileNumbers.randomElement(using: &random)!.utf8))
        return bytes
    }

    func test_historyCommands_neverTrapOnAMutatedHistory_andTheListStillReads() throws {
        var random = SeededGenerator(seed: 6)
        let todo = try Harness()
        todo.succeed("add", "Call Mom", "--due", "tomorrow", "--location", "Home", "--coordinate", "52.5,13.4")
        todo.succeed("add", "Buy milk", "--description", "two\nlines")
        todo.succeed("check", "1")
        todo.succeed("edit", "2", "--title", "Buy oat milk", "--due", "2030-01-01 09:30")
        todo.succeed("add", "Pay rent")
        todo.succeed("remove", "3")
        todo.succeed("undo")
        todo.succeed("undo")
        todo.succeed("redo")
        let list = try XCTUnwrap(todo.fileContents)
        let historyURL = URL(fileURLWithPath: todo.fileURL.path + ".history")
        let history = Array(try Data(contentsOf: historyURL))
        let documented = Set(ExitCode.allCases.map(\.rawValue))
        let commands = [
            ["history"], ["history", "--json"], ["undo"], ["redo"], ["undo", "3"], ["undo", "--change", "4"],
            ["redo", "2"]
        ]
        var statuses: [Int32: Int] = [:]
        for index in 0..<2_000 {
            try Data(Self.mutatedHistory(history, &random)).write(to: historyURL)
            try list.write(to: todo.fileURL)
            let arguments = commands[index % commands.count]
            let outcome = todo.run(arguments, input: [])
            statuses[outcome.status, default: 0] += 1
            let label = "case \(index): \(arguments)"
            XCTAssertTrue(documented.contains(outcome.status), "\(label): \(outcome)")
            if outcome.status != 0 { XCTAssertTrue(outcome.stderr.hasPrefix("Error: "), "\(label): \(outcome)") }
            XCTAssertNoThrow(try JSONFileStore(fileURL: todo.fileURL).load(), label)
            XCTAssertNoThrow(try JSONFileStore(fileURL: todo.fileURL).history(), label)
        }
        XCTAssertGreaterThan(statuses[0] ?? 0, 200, "\(statuses)")
    }

    func test_aHistoryLineWithATimeNoDateCanShow_isLeftOut_notTrappedOn() throws {
        let todo = try Harness()
        todo.succeed("add", "Call Mom")
        todo.succeed("add", "Buy milk")
        let historyURL = URL(fileURLWithPath: todo.fileURL.path + ".history")
        let text = try String(contentsOf: historyURL, encoding: .utf8)
        let hostile = text.replacingOccurrences(
            of: #""time":1795361400"#, with: #""time":1e30"#, options: [],
            range: text.range(of: "\n")!.upperBound..<text.endIndex)
        XCTAssertNotEqual(hostile, text)
        try Data(hostile.utf8).write(to: historyURL)

        XCTAssertEqual(
            todo.run("history"),
            Outcome(
                status: 0,
                stdout: """
                    1  11/22/26 10:30  todo add 'Call Mom'
                      Added 1: Call Mom

                    """, stderr: "Warning: 1 line of the history could not be read as changes and was left out\n"))
    }

    /// The binary itself on mutated data and history files: a trap would show as an exit of 128 or
    /// more (a signal), which the in-process tests above would see only as a crash of the run.
    func test_theBinary_onMutatedDataAndHistoryFiles_exitsWithADocumentedCode() throws {
        var random = SeededGenerator(seed: 7)
        let directory = try TemporaryDirectory()
        let file = directory.file("items.json")
        let todo = BinaryRunner(
            environment: ["TODO_FILE": file.path, "TZ": "America/New_York", "HOME": directory.url.path],
            currentDirectory: directory.url)
        for arguments in [
            ["add", "Call Mom", "--due", "tomorrow"], ["add", "Buy milk"], ["check", "1"], ["undo"], ["redo"]
        ] {
            XCTAssertEqual(try todo.run(arguments).status, 0)
        }
        let list = Array(try Data(contentsOf: file))
        let history = Array(try Data(contentsOf: URL(fileURLWithPath: file.path + ".history")))
        let documented = Set(ExitCode.allCases.map(\.rawValue))
        for index in 0..<100 {
            let mutatingList = index.isMultiple(of: 2)
            try Data(mutatingList ? Self.mutatedHistory(list, &random) : list).write(to: file)
            try Data(mutatingList ? history : Self.mutatedHistory(history, &random)).write(
                to: URL(fileURLWithPath: file.path + ".history"))
            let arguments = [["list"], ["history"], ["undo"], ["add", "New \(index)"], ["show", "1"]][index % 5]
            let outcome = try todo.run(arguments)
            XCTAssertTrue(documented.contains(outcome.status), "case \(index): \(arguments): \(outcome)")
        }
    }
}
