import Foundation
import XCTest

/// The same words given to the real Taskwarrior (`task`, installed by `.ci/run`) and to todo, on
/// the same items, and the answers compared: what a Taskwarrior user types is answered as
/// Taskwarrior answers it (issue 52). Both read today from the clock, in the same zone.
final class TheirWordsTests: BinaryTestCase {
    override var timeZone: String { "America/New_York" }

    /// Items due on each of the next days, in both programs.
    private func itemsDueEachDay(_ days: Int, task: String) throws -> BinaryRunner {
        let data = directory.file("taskdata").path, rc = directory.file("taskrc").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Data("data.location=\(data)\nconfirmation=off\njson.array=on\nverbose=nothing\n".utf8)
            .write(to: URL(fileURLWithPath: rc))
        var taskwarrior = todo!
        taskwarrior.environment["TASKRC"] = rc
        taskwarrior.environment["TASKDATA"] = data
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: timeZone))
        for offset in 0..<days {
            let day = try XCTUnwrap(calendar.date(byAdding: .day, value: offset, to: Date()))
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            let date = String(
                format: "%04d-%02d-%02d", try XCTUnwrap(parts.year), try XCTUnwrap(parts.month),
                try XCTUnwrap(parts.day))
            let title = "Day \(offset) \(date)"
            XCTAssertEqual(try taskwarrior.run(program: task, ["add", title, "due:\(date)"]).status, 0)
            XCTAssertEqual(try todo.run(["add", title, "--due", date]).status, 0)
        }
        return taskwarrior
    }

    /// The titles a filter selects, as each program answers it.
    private func titles(_ outcome: Outcome, key: String) throws -> Set<String> {
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        return Set(items.compactMap { $0[key] as? String })
    }

    /// `due.before:`, `due.by:` and `due.after:` with the ends of periods (which Taskwarrior reads
    /// as the last second of their last day: before the end of the week holds Sunday) and with
    /// days (before a day is before it begins; by a day is on or before it).
    func test_dueFilters_selectWhatTaskwarriorSelects() throws {
        let task = try installedTool(["task"])
        // Forty days: past the end of the month from any day, and of the year in December.
        let taskwarrior = try itemsDueEachDay(40, task: task)
        for word in ["eod", "eow", "eom", "eoy", "today", "tomorrow"] {
            for modifier in ["before", "by", "after"] {
                let filter = "due.\(modifier):\(word)"
                XCTAssertEqual(
                    try titles(todo.run(["list", "--json", filter]), key: "title"),
                    try titles(taskwarrior.run(program: task, [filter, "export"]), key: "description"), filter)
            }
        }
    }
}
