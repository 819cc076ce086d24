import Foundation
import XCTest

/// The same words given to the real Taskwarrior (`task`, installed by `.ci/run`) and to todo, on
/// the same items, and the answers compared: what a Taskwarrior user types is answered as
/// Taskwarrior answers it (issue 52). Both read today from the clock, in the same zone.
final class TheirWordsTests: BinaryTestCase {
    override var timeZone: String { "America/New_York" }

    /// Items due on each of `days` (offsets from today), in both programs.
    private func itemsDueEachDay(_ days: Range<Int>, task: String) throws -> BinaryRunner {
        let data = directory.file("taskdata").path, rc = directory.file("taskrc").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Data("data.location=\(data)\nconfirmation=off\njson.array=on\nverbose=nothing\n".utf8)
            .write(to: URL(fileURLWithPath: rc))
        var taskwarrior = todo!
        taskwarrior.environment["TASKRC"] = rc
        taskwarrior.environment["TASKDATA"] = data
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: timeZone))
        for offset in days {
            let day = try XCTUnwrap(calendar.date(byAdding: .day, value: offset, to: Date()))
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
            // The days around today and the edges of weeks, months and quarters: where the
            // answers can differ (the rest would only take longer).
            let monthLength = try XCTUnwrap(calendar.range(of: .day, in: .month, for: day)).count
            guard
                abs(offset) <= 3 || [1, 2].contains(parts.weekday)
                    || [1, 2, monthLength - 1, monthLength].contains(parts.day)
            else { continue }
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
    /// as the last second of their last day: before the end of the week holds Sunday), their
    /// starts, and days (before a day is before it begins; by a day is on or before it).
    func test_dueFilters_selectWhatTaskwarriorSelects() throws {
        let task = try installedTool(["task"])
        // Ninety-two days either side: past the quarter's ends from any day, and the year's in its
        // last and first quarters.
        let taskwarrior = try itemsDueEachDay(-92..<93, task: task)
        for word in [
            "eod", "eow", "eom", "eoq", "eoy", "sod", "sow", "som", "soq", "soy", "today", "tomorrow", "yesterday"
        ] {
            for modifier in ["before", "by", "after"] {
                let filter = "due.\(modifier):\(word)"
                XCTAssertEqual(
                    try titles(todo.run(["list", "--json", filter]), key: "title"),
                    try titles(taskwarrior.run(program: task, [filter, "export"]), key: "description"), filter)
            }
        }
    }
}
