import Foundation
import XCTest

/// The same words given to the real Taskwarrior (`task`, installed by `.ci/run`) and to todo, on
/// the same items, and the answers compared: what a Taskwarrior user types is answered as
/// Taskwarrior answers it (issue 52). Both read today from the clock, in the same zone.
final class TheirWordsTests: BinaryTestCase {
    override var timeZone: String { "America/New_York" }

    /// A runner for the real Taskwarrior, with its data in the test's folder, in the same zone.
    private func taskwarrior() throws -> BinaryRunner {
        let data = directory.file("taskdata").path, rc = directory.file("taskrc").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Data("data.location=\(data)\nconfirmation=off\njson.array=on\nverbose=nothing\n".utf8)
            .write(to: URL(fileURLWithPath: rc))
        var taskwarrior = todo!
        taskwarrior.environment["TASKRC"] = rc
        taskwarrior.environment["TASKDATA"] = data
        return taskwarrior
    }

    /// The Gregorian calendar in the tests' zone.
    private func localCalendar() throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: timeZone))
        return calendar
    }

    /// Items due on each of `days` (offsets from today), in both programs.
    private func itemsDueEachDay(_ days: Range<Int>, task: String) throws -> BinaryRunner {
        let taskwarrior = try taskwarrior(), calendar = try localCalendar()
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

    /// The due date each program gives `word`: todo's day (`yyyy-MM-dd`) or time (seconds since
    /// 1970), and Taskwarrior's moment.
    private func dues(
        of word: String, task: String, taskwarrior: BinaryRunner
    ) throws -> (
        todo: Any?, taskwarrior: Date
    ) {
        let title = "Word \(word)"
        let added = try todo.run(["add", title, "--due", word])
        XCTAssertEqual(added.status, 0, "\(word): \(added.stderr)")
        XCTAssertEqual(try taskwarrior.run(program: task, ["add", title, "due:\(word)"]).status, 0, word)
        let item = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try todo.run(["list", "--json", "--all"]).stdout.utf8))
                as? [[String: Any]]
        ).first { $0["title"] as? String == title }
        let task = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(try taskwarrior.run(program: task, ["description.is:\(title)", "export"]).stdout.utf8))
                as? [[String: Any]]
        ).first
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let due = try XCTUnwrap(formatter.date(from: try XCTUnwrap(task?["due"] as? String, word)), word)
        return (item?["dueDate"] ?? item?["timestamp"], due)
    }

    /// The words for dates Taskwarrior's users type (days of the month, a month alone, durations,
    /// a date moved by a duration, ISO 8601 with seconds), given to both programs as a due date:
    /// the same day, or for a time the same minute (todo keeps minutes). Where todo decided
    /// otherwise (docs/dates.md), the decision: months, quarters and years are the calendar's
    /// (Taskwarrior counts 30, 91 and 365 days), `31st` is a day that is one, and `someday` is
    /// refused, saying what to do.
    func test_dateWords_nameWhatTaskwarriorNames() throws {
        let task = try installedTool(["task"])
        let taskwarrior = try taskwarrior(), calendar = try localCalendar()
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        day.timeZone = calendar.timeZone
        for word in [
            "1st", "2nd", "15th", "28th", "30th", "jan", "dec", "nov", "2wk", "3days", "1 week", "-2d", "+3d", "1w",
            "-1w", "2weeks", "now+2h", "tomorrow+17h", "monday+9h", "eow-1d", "sow+1d", "today+2d", "2h", "90min",
            "2030-01-10T17:00:00", "2030-01-10T17:00:00Z", "2030-01-10T17:00", "eom"
        ] {
            let (ours, theirs) = try dues(of: word, task: task, taskwarrior: taskwarrior)
            if let ours = ours as? String {
                XCTAssertEqual(ours, day.string(from: theirs), word)
            } else {
                let ours = try XCTUnwrap(ours as? Double, "\(word): \(String(describing: ours))")
                XCTAssertLessThan(abs(ours - theirs.timeIntervalSince1970), 60, word)
            }
        }
        // The decisions: calendar months, quarters and years from today's date, as Foundation counts them.
        let today = calendar.startOfDay(for: Date())
        for (word, months) in [("-1m", -1), ("3m", 3), ("1mo", 1), ("1q", 3), ("1y", 12), ("2yrs", 24)] {
            let (ours, _) = try dues(of: word, task: task, taskwarrior: taskwarrior)
            let expected = try XCTUnwrap(calendar.date(byAdding: .month, value: months, to: today))
            XCTAssertEqual(ours as? String, day.string(from: expected), word)
        }
        // The next 31st: this month's when it has one and it is ahead, else the next month's that has one.
        let (ours, _) = try dues(of: "31st", task: task, taskwarrior: taskwarrior)
        var next = today
        repeat {
            next = try XCTUnwrap(calendar.date(byAdding: .day, value: 1, to: next))
        } while calendar.component(
            .day, from: next) != 31
        XCTAssertEqual(ours as? String, day.string(from: next), "31st")
        let someday = try todo.run(["add", "Plan trip", "due:someday"])
        XCTAssertEqual(someday.status, 64)
        XCTAssertTrue(someday.stderr.contains("todo keeps no far-off stand-in date"), someday.stderr)
    }

    /// A recurring task comes over as one repeating item, due at its first pending instance,
    /// whether the export holds its template (`task export`) or only its pending instances (`task
    /// status:pending export`, here four of them); and goes back to Taskwarrior as one series.
    func test_aRecurringTask_comesOverAsOneSeries_andGoesBackAsOne() throws {
        let task = try installedTool(["task"])
        let taskwarrior = try taskwarrior()
        let limit = "rc.recurrence.limit=4"
        XCTAssertEqual(
            try taskwarrior.run(program: task, [limit, "add", "Stretch", "due:today", "recur:daily"]).status, 0)
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        day.timeZone = try localCalendar().timeZone
        for (name, filter) in [("pending", ["status:pending"]), ("all", [])] {
            let exported = try taskwarrior.run(program: task, [limit] + filter + ["export"])
            XCTAssertEqual(exported.status, 0, exported.stderr)
            XCTAssertGreaterThan(exported.stdout.components(separatedBy: "\"status\":\"pending\"").count - 1, 2, name)
            let file = directory.file("\(name).json")
            try Data(exported.stdout.utf8).write(to: file)
            var here = todo!
            here.environment["TODO_FILE"] = directory.file("\(name)-items.json").path
            let imported = try here.run(["import", file.path])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            let items = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(try here.run(["list", "--json", "--all"]).stdout.utf8))
                    as? [[String: Any]])
            XCTAssertEqual(items.map { $0["title"] as? String }, ["Stretch"], name)
            XCTAssertEqual(items.first?["repeat"] as? String, "FREQ=DAILY", name)
            XCTAssertEqual(items.first?["dueDate"] as? String, day.string(from: Date()), name)
            // Back into a Taskwarrior of its own: one series, as it left.
            let back = directory.file("\(name)-back.json")
            XCTAssertEqual(try here.run(["export", "--format", "taskwarrior", "--output", back.path]).status, 0)
            let data = directory.file("\(name)-taskdata").path
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            var fresh = taskwarrior
            fresh.environment["TASKDATA"] = data
            XCTAssertEqual(try fresh.run(program: task, ["rc.data.location=\(data)", "import", back.path]).status, 0)
            let again = try fresh.run(program: task, ["rc.data.location=\(data)", limit, "export"])
            XCTAssertEqual(again.stdout.components(separatedBy: "\"status\":\"recurring\"").count - 1, 1, name)
        }
    }

    /// todo.sh's words, given to the real todo.sh and to todo: the lines its help shows (a
    /// priority, `+project` and `@context`, in the middle of a sentence too, and lines that differ
    /// only in those words) are the same items in both (`ls +family`, `ls @phone`, the
    /// priorities `lsp` lists), and todo's import and export give todo.sh's file back byte for
    /// byte but for todo's own `id:`.
    func test_todoShsLines_areReadAsTodoShReadsThem_andGoBackAsTheyCame() throws {
        let todoSh = try installedTool(["todo-txt", "todo.sh"])
        let folder = directory.file("todo-txt").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = directory.file("todo.cfg").path
        try Data(
            ("export TODO_DIR=\(folder)\nexport TODO_FILE=$TODO_DIR/todo.txt\nexport DONE_FILE=$TODO_DIR/done.txt\n"
                + "export REPORT_FILE=$TODO_DIR/report.txt\n").utf8
        ).write(to: URL(fileURLWithPath: config))
        let lines = [
            "(A) Call Mom +family @phone", "(A) Call Mom", "Talk to +Mom about the @phone bill",
            "(B) Pay rent due:2030-01-01 +home", "(K) Sort the photos +home"
        ]
        for line in lines {
            XCTAssertEqual(try todo.run(program: todoSh, ["-d", config, "-t", "add", line]).status, 0, line)
            XCTAssertEqual(try todo.run(["add", line]).status, 0, line)
        }
        // Another tool's word and a run of spaces, in todo.sh's file alone.
        XCTAssertEqual(
            try todo.run(program: todoSh, ["-d", config, "add", "Plant   tulips +garden t:2030-03-01 h:1"]).status, 0)
        XCTAssertEqual(try todo.run(program: todoSh, ["-d", config, "-a", "do", "2"]).status, 0)
        XCTAssertEqual(try todo.run(["do", "2"]).status, 0)
        /// The titles each program lists for `words`, without their numbers, priorities and dates.
        func listed(_ words: [String]) throws -> (todoSh: [String], todo: [String]) {
            let theirs = try todo.run(program: todoSh, ["-d", config, "-p", "-x"] + words).stdout
                .split(separator: "\n").filter { $0.first?.isNumber == true && !$0.contains(" x ") }
                .map { line in
                    var text = line.drop { $0 != " " }.dropFirst()
                    if text.hasPrefix("(") { text = text.dropFirst(4) }
                    if let date = text.prefix(11).firstIndex(of: " "), text.prefix(10).contains("-") {
                        text = text[text.index(after: date)...]
                    }
                    return String(text.split(separator: " ").filter { !$0.contains(":") }.joined(separator: " "))
                }
            let ours = try todo.run(["list", "--json", "--all"] + words.dropFirst()).stdout
            let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ours.utf8)) as? [[String: Any]])
            return (
                theirs.sorted(),
                items.compactMap { $0["done"] as? Bool == false ? $0["title"] as? String : nil }.sorted()
            )
        }
        for filter in [["ls", "+family"], ["ls", "@phone"], ["ls", "+home"], ["ls", "Mom"]] {
            let (theirs, ours) = try listed(filter)
            XCTAssertEqual(ours, theirs, "\(filter)")
        }
        // Their priorities: each letter as todo.sh lists it.
        let priorities = try todo.run(program: todoSh, ["-d", config, "-p", "lsp"]).stdout
        XCTAssertTrue(priorities.contains("(B) ") && priorities.contains("(K) "), priorities)
        XCTAssertEqual(try todo.run(["list", "pri:B"]).stdout.split(separator: "\n").count, 1)
        // todo.sh's file, imported and exported: the same bytes but for todo's id after each line.
        var here = todo!
        here.environment["TODO_FILE"] = directory.file("from-todo-sh.json").path
        XCTAssertEqual(try here.run(["import", "\(folder)/todo.txt"]).status, 0)
        let file = try String(contentsOfFile: "\(folder)/todo.txt", encoding: .utf8)
        let exported = try here.run(["export", "--format", "todotxt"]).stdout
        XCTAssertEqual(
            exported.replacingOccurrences(of: #" id:[0-9A-F-]{36}$"#, with: "", options: .regularExpression)
                .split(separator: "\n").map {
                    $0.replacingOccurrences(of: #" id:[0-9A-F-]{36}"#, with: "", options: .regularExpression)
                },
            file.split(separator: "\n").map(String.init))
        XCTAssertEqual(
            try here.run(["list", "--all"]).stdout.components(separatedBy: "Call Mom").count - 1, 2, "no twins")
    }

    /// A series with an end (`until:`) comes over with its end, and goes back with it.
    func test_aSeriesUntil_comesOverWithItsEnd_andGoesBack() throws {
        let task = try installedTool(["task"])
        let taskwarrior = try taskwarrior()
        XCTAssertEqual(
            try taskwarrior.run(program: task, ["add", "Weekly", "due:eow", "recur:weekly", "until:eow+8w"]).status, 0)
        let exported = try taskwarrior.run(program: task, ["export"])
        let file = directory.file("tasks.json")
        try Data(exported.stdout.utf8).write(to: file)
        XCTAssertEqual(try todo.run(["import", file.path]).status, 0)
        let items = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try todo.run(["list", "--json"]).stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(items.count, 1)
        let rule = try XCTUnwrap(items.first?["repeat"] as? String)
        XCTAssertTrue(rule.hasPrefix("FREQ=WEEKLY;UNTIL="), rule)
        let template = try XCTUnwrap(
            (JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [[String: Any]])?.first {
                $0["status"] as? String == "recurring"
            })
        let back = directory.file("back.json")
        XCTAssertEqual(try todo.run(["export", "--format", "taskwarrior", "--output", back.path]).status, 0)
        let written = try XCTUnwrap(
            JSONSerialization.jsonObject(with: try Data(contentsOf: back)) as? [[String: Any]])
        XCTAssertEqual(written.first?["until"] as? String, template["until"] as? String)
        XCTAssertEqual(written.first?["recur"] as? String, "weekly")
    }
}
