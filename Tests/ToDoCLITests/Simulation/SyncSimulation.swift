import Foundation
import TestSupport
import ToDoCore

@testable import ToDoCLI

/// A deterministic, seeded simulation of several devices kept in step through one CalDAV server,
/// after FoundationDB's simulation tests and TigerBeetle's VOPR: two or three laptops (each a list
/// file of its own, its own zone, running todo's commands in this process as a user types them),
/// a phone (writing VTODOs straight into the server as phone apps do: alarms, `STATUS:IN-PROCESS`,
/// a `LAST-MODIFIED` that does not always move) and the server (`SimulatedCalDAVServer`, with one
/// real server's habits and faults injected into single requests). Random operations on every side
/// are interleaved with syncs; the invariants (`SyncSimulation.Invariant`) are checked after each
/// step and after quiet syncs. The same seed runs the same steps: a failure prints its trace.
///
/// A process killed in the middle of a sync is played by a request that never comes back (the
/// sync stops there, as a killed one would, its lock released); a kill inside a transaction is
/// what `CrashTests` try at every system call.
final class SyncSimulation {
    /// What must hold, said when it does not.
    struct Violation: Error, CustomStringConvertible {
        var invariant: String
        var detail: String
        var description: String { "\(invariant): \(detail)" }
    }

    struct Options {
        var laptops = 2
        var steps = 60
        var habit: SimulatedCalDAVServer.Habit = .radicale
        /// How often a sync meets a fault in one of its requests.
        var faultRate = 0.15
        /// Every so many steps, the devices sync until quiet and every invariant is checked.
        var quietEvery = ProcessInfo.processInfo.environment["TODO_SIMULATION_QUIET_EVERY"].flatMap(Int.init) ?? 25
    }

    final class Laptop {
        let name: String
        let harness: Harness
        var zone: String
        var isSetUp = false
        /// Whether it was set up with `--all-lists`: every calendar of the account is a list here.
        var allLists = false
        /// Numbers as first seen, by id: a number never changes while the item lives.
        var numbers: [String: Int] = [:]

        init(name: String, zone: String) throws {
            self.name = name
            self.zone = zone
            harness = try Harness(inMemory: true)
            harness.environment["TZ"] = zone
            harness.environment["TODO_SYNC_PASSWORD"] = "secret"
            harness.environment["TODO_LOCK_TIMEOUT"] = "1"
        }
    }

    /// An item of a laptop, as `todo list --all --json` shows it.
    struct Item: Equatable {
        var id: String
        var uid: String
        var number: Int
        var title: String
        var done: Bool
        var list: String?
        /// A due at a time, in seconds.
        var due: Double?
        var repeatRule: String?
    }

    let seed: UInt64
    let options: Options
    let server: SimulatedCalDAVServer
    var laptops: [Laptop] = []
    private var random: SeededGenerator
    private(set) var trace: [String] = []
    private var clock = Date(timeIntervalSince1970: 1_795_361_400)
    private var counter = 0
    /// Every task any side made, by UID, and those a side deleted (which may then be gone).
    private var made: Set<String> = []
    /// Which device made each task, by UID.
    private var madeBy: [String: String] = [:]
    private var deleted: Set<String> = []
    /// The zone each timed series was made in, by UID: its rule is followed there, wherever checked.
    private var seriesZones: [String: String] = [:]
    /// The step being taken, and when each task was last changed by a side since the last quiet
    /// syncs (by UID; `anyTask` for an undo, a redo or a list renamed or removed), and where.
    private var stepNumber = 0
    private var touches: [(uid: String, by: String, step: Int)] = []
    private static let anyTask = "*"
    /// The client whose write races a laptop's.
    private static let racer = "another client"
    /// Racing writes the server took that the next quiet syncs must not have lost, with the step
    /// and the laptop whose write was raced.
    private var pendingRaces: [(write: SimulatedCalDAVServer.RacedWrite, laptop: String, step: Int)] = []
    private static let listNames = ["Work", "Home", "Errands"]
    /// Whether the trace shows what each command printed (`TODO_SIMULATION_VERBOSE=1`).
    private static let verbose = ProcessInfo.processInfo.environment["TODO_SIMULATION_VERBOSE"] == "1"
    private static let zones = [
        "America/New_York", "Europe/Berlin", "Asia/Tokyo", "America/Los_Angeles", "Pacific/Kiritimati"
    ]

    init(seed: UInt64, options: Options = Options()) throws {
        self.seed = seed
        self.options = options
        random = SeededGenerator(seed: seed)
        server = SimulatedCalDAVServer(habit: options.habit)
        for index in 0..<options.laptops {
            let laptop = try Laptop(name: "laptop\(index + 1)", zone: Self.zones[index % Self.zones.count])
            laptop.harness.transport = server
            // Ids from the seed, so that a replay makes the same UIDs.
            let ids = SeededIDs(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
            laptop.harness.newID = { ids.next() }
            laptops.append(laptop)
        }
    }

    /// Runs the simulation's steps, checking the invariants after each; throws the first violation,
    /// with the trace that led to it.
    func run() throws {
        do {
            for step in 1...options.steps {
                clock += Double(Int.random(in: 1...90, using: &random) * 60)
                stepNumber = step
                try self.step()
                if step % options.quietEvery == 0 { try quietSyncs() }
            }
            try quietSyncs()
        } catch let violation as Violation {
            throw Violation(
                invariant: violation.invariant,
                detail: violation.detail + "\n--- seed \(seed), trace:\n" + trace.joined(separator: "\n"))
        }
    }

    // MARK: Steps

    private func step() throws {
        let laptop = laptops[Int.random(in: 0..<laptops.count, using: &random)]
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<12: try add(on: laptop)
        case 12..<22: try sync(laptop, faults: true)
        case 22..<28: try changeAnItem(on: laptop, ["check"])
        case 28..<31: try changeAnItem(on: laptop, ["uncheck"], done: true)
        case 31..<36: try changeAnItem(on: laptop, ["edit", "--title", newTitle("edited")])
        case 36..<40: try changeAnItem(on: laptop, ["remove"])
        case 40..<45: try changeAnItem(on: laptop, ["edit", "--list", pick(Self.listNames + ["default"])])
        case 45..<48: try renameList(on: laptop)
        case 48..<50: try removeList(on: laptop)
        case 50..<55: try undo(on: laptop)
        case 55..<57:
            touches.append((Self.anyTask, laptop.name, stepNumber))
            try run(laptop, ["redo"], allowed: [0, 5])
        case 57..<59: try changeZone(of: laptop)
        case 59..<62: try setUp(laptop)
        case 62..<72: try phoneAdds()
        case 72..<78: try phoneChanges()
        case 78..<81: try phoneDeletes()
        case 81..<84: try phoneMoves()
        case 84..<86: try phoneMakesCalendar()
        case 86..<87: try phoneDeletesCalendar()
        default: try sync(laptop, faults: false)
        }
    }

    private func newTitle(_ kind: String) -> String {
        counter += 1
        return "\(kind) \(counter)"
    }

    private func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }

    private func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }

    @discardableResult
    private func run(_ laptop: Laptop, _ arguments: [String], allowed: Set<Int32>) throws -> Outcome {
        laptop.harness.now = clock
        let outcome = laptop.harness.run(arguments, input: [])
        let shown = arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        trace.append(
            "\(laptop.name) (\(laptop.zone)): todo \(shown) -> \(outcome.status)"
                + (outcome.stderr.isEmpty ? "" : " | " + outcome.stderr.split(separator: "\n").joined(separator: " / "))
                + (Self.verbose && !outcome.stdout.isEmpty
                    ? "\n    " + outcome.stdout.split(separator: "\n").joined(separator: "\n    ") : ""))
        guard allowed.contains(outcome.status) else {
            throw Violation(
                invariant: "every command ends as documented", detail: "\(laptop.name): todo \(shown)\n\(outcome)")
        }
        try checkList(of: laptop)
        return outcome
    }

    private func add(on laptop: Laptop) throws {
        var arguments = ["add", newTitle(laptop.name)]
        if chance(0.35) { arguments += ["--list", pick(Self.listNames)] }
        let series = chance(0.3)
        if series {
            arguments += ["--due", pick(["friday 23:30", "monday 00:30", "tomorrow 11:00"]), "--repeat", "weekdays"]
        } else if chance(0.2) {
            arguments += ["--due", pick(["tomorrow", "friday", "+3d"])]
        }
        let outcome = try run(laptop, arguments, allowed: [0])
        if outcome.status == 0, let uid = try items(of: laptop).last(where: { $0.title == arguments[1] })?.uid {
            made.insert(uid)
            madeBy[uid] = laptop.name
            if series { seriesZones[uid] = laptop.zone }
        }
    }

    /// Runs `words` on an item of the laptop's picked at random (open ones, or done ones).
    private func changeAnItem(on laptop: Laptop, _ words: [String], done: Bool = false) throws {
        let candidates = try items(of: laptop).filter { $0.done == done }
        guard !candidates.isEmpty else { return }
        // A series is checked often: where zones and repeats meet.
        let series = candidates.filter { seriesZones[$0.uid] != nil && $0.repeatRule != nil }
        let item = words == ["check"] && !series.isEmpty && chance(0.7) ? pick(series) : pick(candidates)
        // An edit or check may meet a rule (an open twin, open subtasks): refused, exit 3.
        touches.append((item.uid, laptop.name, stepNumber))
        let outcome = try run(laptop, [words[0], String(item.number)] + words.dropFirst(), allowed: [0, 3])
        if words[0] == "remove", outcome.status == 0 { deleted.insert(item.uid) }
        if words[0] == "check", outcome.status == 0, let zone = seriesZones[item.uid], let due = item.due,
            item.repeatRule != nil,
            let next = try items(of: laptop).first(where: { $0.uid == item.uid && !$0.done })?.due
        {
            try checkOccurrence(next, after: due, madeIn: zone, checkedOn: laptop, item: item)
        }
    }

    /// A series made in one zone is followed there wherever it is checked (RFC 5545 follows a rule
    /// in its DTSTART's zone): its next occurrence is a weekday there, at the time of day it had.
    private func checkOccurrence(
        _ next: Double, after due: Double, madeIn zone: String, checkedOn laptop: Laptop, item: Item
    ) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        func parts(_ moment: Double) -> DateComponents {
            calendar.dateComponents([.weekday, .hour, .minute], from: Date(timeIntervalSince1970: moment))
        }
        let before = parts(due), after = parts(next)
        guard next > due, (2...6).contains(after.weekday!), after.hour == before.hour, after.minute == before.minute
        else {
            throw Violation(
                invariant: "a repeat rule is followed in the zone it was made in",
                detail:
                    "\(laptop.name) (\(laptop.zone)) checked \(item.number) '\(item.title)' (weekdays, made in \(zone)): "
                    + "due \(Self.utc(Date(timeIntervalSince1970: due))) -> \(Self.utc(Date(timeIntervalSince1970: next))), "
                    + "in \(zone) weekday \(before.weekday!) \(before.hour!):\(before.minute!) -> weekday \(after.weekday!) \(after.hour!):\(after.minute!)"
            )
        }
    }

    private func renameList(on laptop: Laptop) throws {
        let lists = Set(try items(of: laptop).compactMap(\.list))
        guard let from = lists.sorted().first(where: { _ in chance(0.5) }) ?? lists.sorted().first else { return }
        let to = pick((Self.listNames + ["Garden"]).filter { $0 != from })
        // Another list than the one renamed (a new case of its own name is a rename).
        let holding = from.lowercased() != to.lowercased() && lists.contains { $0.lowercased() == to.lowercased() }
        let before = try items(of: laptop)
        touches.append((Self.anyTask, laptop.name, stepNumber))
        let outcome = try run(laptop, ["lists", "rename", from, to], allowed: [0, 3])
        // Renaming onto a list that holds items would merge the two for good: refused.
        if holding, outcome.status == 0 {
            throw Violation(
                invariant: "a rename never merges two lists",
                detail:
                    "\(laptop.name): todo lists rename \(from) \(to) exited 0 while \(to) held \(before.filter { $0.list == to }.count) items"
            )
        }
    }

    private func removeList(on laptop: Laptop) throws {
        let lists = Set(try items(of: laptop).compactMap(\.list))
        guard let list = lists.sorted().first else { return }
        touches.append((Self.anyTask, laptop.name, stepNumber))
        try run(
            laptop, ["lists", "remove", list, "--to", pick(Self.listNames.filter { $0 != list } + ["default"])],
            allowed: [0])
    }

    /// An undo takes back this laptop's last change, a sync's too; what it takes out that a sync
    /// brought in must arrive again (an undo never deletes what another side made).
    private func undo(on laptop: Laptop) throws {
        touches.append((Self.anyTask, laptop.name, stepNumber))
        let before = Set(try items(of: laptop).map(\.uid))
        try run(laptop, ["undo"], allowed: [0, 5])
        let after = Set(try items(of: laptop).map(\.uid))
        // Its own add taken back is its own delete; what another side made must come back.
        for uid in before.subtracting(after) where madeBy[uid] == laptop.name { deleted.insert(uid) }
    }

    private func changeZone(of laptop: Laptop) throws {
        laptop.zone = pick(Self.zones)
        laptop.harness.environment["TZ"] = laptop.zone
        trace.append("\(laptop.name): now in \(laptop.zone)")
    }

    /// Sets the laptop up for sync (the first time, or again: `forget` and `setup`); the first
    /// laptop without `--all-lists`, as the first machine of an account is set up.
    private func setUp(_ laptop: Laptop) throws {
        if laptop.isSetUp {
            guard chance(0.3) else { return try sync(laptop, faults: false) }
            try run(laptop, ["sync", "forget"], allowed: [0])
        }
        var arguments = ["sync", "setup", server.root.absoluteString, "--user", "alice", "--calendar", "Tasks"]
        if laptop !== laptops[0] { arguments.append("--all-lists") }
        let outcome = try run(laptop, arguments, allowed: [0, 1])
        if outcome.status == 0 { laptop.allLists = arguments.contains("--all-lists") }
        laptop.isSetUp = outcome.status == 0 || laptop.isSetUp
    }

    private func sync(_ laptop: Laptop, faults: Bool) throws {
        guard laptop.isSetUp else { return try setUp(laptop) }
        if faults, options.habit == .davical, chance(0.3) {
            // Where the server takes racing writes, races are common: another client writes at
            // the moment this sync does.
            server.fault(.racedByAnotherWriter, afterRequests: 0)
            trace.append("server: another client writes at the moment this sync does")
        } else if faults, chance(options.faultRate) {
            let fault = pick([SimulatedCalDAVServer.Fault.unavailable, .timedOut, .doneButCut, .noETag])
            server.fault(fault, afterRequests: Int.random(in: 0...6, using: &random))
            trace.append(
                "server: \(fault) at request \(server.scheduledFault!.index - server.requests.count + 1) from now")
        }
        // A fault makes a sync exit 1; a sync deleting too much is refused, exit 3.
        let racesBefore = server.racedWrites.count
        try run(laptop, ["sync"], allowed: faults ? [0, 1, 3] : [0, 1, 3])
        server.scheduledFault = nil
        for write in server.racedWrites[racesBefore...] {
            trace.append(
                "server: took another client's write of \(write.uid) over the version \(laptop.name) just replaced ('\(write.description)')"
            )
            pendingRaces.append((write, laptop.name, stepNumber))
            // A later race over the same task replaces what this one added.
            touches.append((write.uid.uppercased(), Self.racer, stepNumber))
        }
    }

    // MARK: The phone

    /// The task calendars the phone sees, by slug.
    private var phoneCalendars: [String] { server.calendars.keys.sorted() }

    private func vtodo(uid: String, summary: String, extra: [String]) -> String {
        let stamp = Self.utc(clock)
        return
            ([
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//Sim//EN", "BEGIN:VTODO", "UID:\(uid)",
                "DTSTAMP:\(stamp)",
                "LAST-MODIFIED:\(stamp)", "SUMMARY:\(summary)"
            ] + extra + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    private func phoneAdds() throws {
        let slug = pick(phoneCalendars)
        let uid = UUID(uuidString: String(format: "00000000-0000-4000-8000-%012llX", random.next() & 0xFFFF_FFFF_FFFF))!
            .uuidString
        var extra = ["STATUS:NEEDS-ACTION"]
        if chance(0.3) { extra = ["STATUS:IN-PROCESS", "PERCENT-COMPLETE:40"] }
        if chance(0.3) {
            extra += [
                "DUE;VALUE=DATE:20261204", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT30M",
                "END:VALARM"
            ]
        }
        let title = newTitle("phone")
        server.put(vtodo(uid: uid, summary: title, extra: extra), named: uid + ".ics", in: slug)
        made.insert(uid)
        madeBy[uid] = "phone"
        trace.append("phone: adds '\(title)' (\(uid)) to \(slug)")
    }

    private func phoneTask() -> (slug: String, name: String, resource: SimulatedCalDAVServer.Resource)? {
        let tasks = server.everything.filter { $0.resource.text.contains("BEGIN:VTODO") }
        return tasks.isEmpty ? nil : pick(tasks)
    }

    private func phoneChanges() throws {
        guard let task = phoneTask() else { return }
        // Phone apps stamp LAST-MODIFIED; scripts over python-caldav do not.
        let stamp = chance(0.7) ? ["LAST-MODIFIED:\(Self.utc(clock))"] : []
        let text: String
        if chance(0.5) {
            text = ICalendarLines.replacing(
                ["STATUS", "COMPLETED", "PERCENT-COMPLETE", "LAST-MODIFIED"].reduce(into: Set()) { $0.insert($1) },
                with: ["STATUS:COMPLETED", "COMPLETED:\(Self.utc(clock))"] + stamp, in: task.resource.text)
            trace.append("phone: completes \(task.slug)/\(task.name)")
        } else {
            let title = newTitle("phone-edited")
            text = ICalendarLines.replacing(
                ["SUMMARY", "LAST-MODIFIED"], with: ["SUMMARY:\(title)"] + stamp, in: task.resource.text)
            trace.append("phone: retitles \(task.slug)/\(task.name) '\(title)'")
        }
        touches.append(((task.resource.uid ?? "").uppercased(), "phone", stepNumber))
        server.put(text, named: task.name, in: task.slug)
    }

    private func phoneDeletes() throws {
        guard let task = phoneTask() else { return }
        server.delete(named: task.name, in: task.slug)
        if let uid = task.resource.uid { deleted.insert(uid.uppercased()) }
        trace.append("phone: deletes \(task.slug)/\(task.name)")
    }

    /// Moves a task to another calendar, as phones do: made there with its UID, deleted here.
    private func phoneMoves() throws {
        guard let task = phoneTask(), phoneCalendars.count > 1 else { return }
        let target = pick(phoneCalendars.filter { $0 != task.slug })
        touches.append(((task.resource.uid ?? "").uppercased(), "phone", stepNumber))
        server.delete(named: task.name, in: task.slug)
        server.put(task.resource.text, named: task.name, in: target)
        trace.append("phone: moves \(task.slug)/\(task.name) to \(target)")
    }

    /// Calendars a phone makes: the lists' names, and names that are one list name to todo (a
    /// case apart, two Unicode forms of one word, the default list's).
    private static let phoneCalendarNames = [
        ("Work", "work"), ("Home", "home"), ("Errands", "errands"), ("Garden", "garden"),
        ("WORK", "work-2"), ("DEFAULT", "default"), ("Caf\u{E9}", "cafe"), ("Cafe\u{301}", "cafe-2")
    ]

    private func phoneMakesCalendar() throws {
        let (name, slug) = pick(Self.phoneCalendarNames)
        if server.makeCalendar(slug, displayName: name) { trace.append("phone: makes the calendar \(name) at \(slug)") }
    }

    private func phoneDeletesCalendar() throws {
        let others = phoneCalendars.filter { $0 != "tasks" }
        guard !others.isEmpty else { return }
        let slug = pick(others)
        for task in server.everything where task.slug == slug {
            if let uid = task.resource.uid { deleted.insert(uid.uppercased()) }
        }
        server.deleteCalendar(slug)
        trace.append("phone: deletes the calendar \(slug)")
    }

    // MARK: Invariants

    /// The laptop's items, open and done, as its list file holds them (read directly: a command
    /// for each step would double the simulation's time); `todo list` reads it at quiet times.
    func items(of laptop: Laptop) throws -> [Item] {
        guard let data = laptop.harness.fileContents else { return [] }
        guard let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let array = file["items"] as? [[String: Any]]
        else {
            throw Violation(
                invariant: "the list stays readable",
                detail: "\(laptop.name): \(String(decoding: data, as: UTF8.self).prefix(300))")
        }
        return array.map(Self.item)
    }

    /// The laptop's items as `todo list --all --json` shows them: the same as its file holds.
    private func checkShownItems(of laptop: Laptop) throws {
        laptop.harness.now = clock
        let outcome = laptop.harness.run(["list", "--all", "--json"], input: [])
        guard outcome.status == 0,
            let array = try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]]
        else {
            throw Violation(
                invariant: "the list stays readable", detail: "\(laptop.name): todo list --all --json\n\(outcome)")
        }
        let shown = array.map(Self.item).sorted { $0.number < $1.number },
            stored = try items(of: laptop).sorted { $0.number < $1.number }
        guard shown == stored else {
            throw Violation(
                invariant: "todo list shows the list's items",
                detail: "\(laptop.name): shown \(shown), stored \(stored)")
        }
    }

    private static func item(_ object: [String: Any]) -> Item {
        let id = object["id"] as? String ?? ""
        return Item(
            id: id, uid: ((object["uid"] as? String) ?? id).uppercased(), number: object["number"] as? Int ?? 0,
            title: object["title"] as? String ?? "", done: object["done"] as? Bool ?? false,
            list: object["list"] as? String,
            due: object["timestamp"] as? Double, repeatRule: object["repeat"] as? String)
    }

    /// After every command: the list reads, and no number has changed.
    private func checkList(of laptop: Laptop) throws {
        let items = try items(of: laptop)
        var seen: [String: Int] = [:]
        for item in items {
            if let number = laptop.numbers[item.id], number != item.number {
                throw Violation(
                    invariant: "numbers never change",
                    detail: "\(laptop.name): \(item.title) was \(number), now \(item.number)")
            }
            seen[item.id] = item.number
        }
        // An item gone and back (undo, redo) keeps its number; one received anew takes the next.
        laptop.numbers = seen
    }

    /// No fault, no phone: every laptop syncs in turn until a round changes nothing; then every
    /// side holds the same tasks, each in its list's calendar, and nothing is lost.
    private func quietSyncs() throws {
        trace.append("-- quiet syncs")
        for laptop in laptops where !laptop.isSetUp { try setUp(laptop) }
        // Until a round in which no sync did anything (each said only its "Synced …" lines).
        for _ in 0..<4 {
            var quiet = true
            for laptop in laptops {
                var outcome = try run(laptop, ["sync"], allowed: [0, 3])
                // A sync that would delete too much waits for the user's word: given here.
                if outcome.status == 3 { outcome = try run(laptop, ["sync", "--force"], allowed: [0]) }
                let said = outcome.stdout.split(separator: "\n")
                if outcome.status != 0
                    || !said.allSatisfy({ $0.hasPrefix("Synced ") && $0.contains("received 0, sent 0,") })
                {
                    quiet = false
                }
            }
            if quiet { break }
        }
        try checkConverged()
    }

    private func checkConverged() throws {
        // Where each task is on the server, by UID: every calendar that holds it.
        var places: [String: [(slug: String, name: String)]] = [:]
        for task in server.everything {
            guard let uid = task.resource.uid?.uppercased() else { continue }
            places[uid, default: []].append((task.slug, task.name))
        }
        for laptop in laptops {
            let status = laptop.harness.run(["sync", "status", "--json"], input: [])
            guard let state = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any],
                let calendar = state["calendar"] as? String
            else {
                throw Violation(invariant: "the sync state reads", detail: "\(laptop.name)\n\(status)")
            }
            var calendarOfList: [String: String] = ["": calendar]
            for list in state["lists"] as? [[String: Any]] ?? [] {
                if let name = list["list"] as? String, let url = list["calendar"] as? String {
                    calendarOfList[name.lowercased()] = url
                }
            }
            try checkShownItems(of: laptop)
            let synced = Set(calendarOfList.values)
            // With --all-lists, every calendar's tasks arrive in a list of their own.
            for slug in server.calendars.keys.sorted()
            where laptop.allLists && !synced.contains(server.calendarURL(slug).absoluteString) {
                throw Violation(
                    invariant: "every calendar is a list on a machine set up with --all-lists",
                    detail: "\(laptop.name) does not sync \(slug) (\(server.calendars[slug]!.displayName))")
            }
            // Among the calendars a laptop syncs, a UID is in one: a task a phone moved to a
            // calendar a laptop does not sync is, to that laptop, deleted (see docs/sync.md).
            var where_: [String: String] = [:]
            for (uid, found) in places {
                let seen = found.filter { synced.contains(server.calendarURL($0.slug).absoluteString) }
                if seen.count > 1 {
                    throw Violation(
                        invariant: "no UID in two calendars",
                        detail:
                            "\(uid) is in \(seen.map { "\($0.slug)/\($0.name)" }.joined(separator: " and ")), both synced by \(laptop.name)"
                    )
                }
                if let place = seen.first { where_[uid] = "\(place.slug)/\(place.name)" }
            }
            let items = try items(of: laptop)
            var uids: Set<String> = []
            for item in items {
                uids.insert(item.uid)
                guard let place = where_[item.uid] else {
                    throw Violation(
                        invariant: "every side converges",
                        detail: "\(laptop.name) has \(item.number) '\(item.title)' (\(item.uid)), the server has not")
                }
                let wanted = calendarOfList[(item.list ?? "").lowercased()]
                let slug = String(place.split(separator: "/")[0])
                guard let wanted, server.calendarURL(slug).absoluteString == wanted else {
                    throw Violation(
                        invariant: "every item lives in its list's calendar",
                        detail:
                            "\(laptop.name): \(item.number) '\(item.title)' of the list \(item.list ?? "default") is in \(place); the list's calendar is \(wanted ?? "none")"
                    )
                }
                let text = server.calendars[slug]!.resources[String(place.split(separator: "/")[1])]!.text
                let summary = ICalendarLines.values(of: "SUMMARY", in: text).first ?? ""
                let done =
                    ICalendarLines.values(of: "STATUS", in: text).first.map { $0 == "COMPLETED" || $0 == "CANCELLED" }
                    ?? false
                guard summary == item.title, done == item.done else {
                    throw Violation(
                        invariant: "every side converges",
                        detail:
                            "\(laptop.name): \(item.number) '\(item.title)' done=\(item.done); the server's: '\(summary)' done=\(done)"
                    )
                }
            }
            for task in server.everything where synced.contains(server.calendarURL(task.slug).absoluteString) {
                guard let uid = task.resource.uid?.uppercased(), task.resource.text.contains("BEGIN:VTODO") else {
                    continue
                }
                guard uids.contains(uid) else {
                    throw Violation(
                        invariant: "every side converges",
                        detail: "the server's \(task.slug)/\(task.name) (\(uid)) is not on \(laptop.name)")
                }
            }
        }
        // Nothing any side made is lost unless a side deleted it.
        for uid in made where places[uid.uppercased()] == nil && !deleted.contains(uid.uppercased()) {
            throw Violation(
                invariant: "nothing is lost unless a side deleted it",
                detail: "\(uid) was made and is gone from the server")
        }
        try checkRacedWrites()
    }

    /// Neither write of a race the server took is lost: what the laptop sent and what the other
    /// client added both stand after quiet syncs, unless a side changed the task since (or,
    /// another side, before the race and after the last quiet syncs: a conflict may then decide).
    private func checkRacedWrites() throws {
        defer {
            pendingRaces = []
            touches = []
        }
        for race in pendingRaces {
            let uid = race.write.uid.uppercased()
            let changed = touches.contains { touch in
                (touch.uid == uid || touch.uid == Self.anyTask)
                    && (touch.step > race.step || touch.by != race.laptop && touch.by != Self.racer)
            }
            guard !changed, !deleted.contains(uid),
                let task = server.everything.first(where: { $0.resource.uid?.uppercased() == uid })
            else { continue }
            let text = task.resource.text
            let summary = ICalendarLines.values(of: "SUMMARY", in: text).first ?? ""
            let status = ICalendarLines.values(of: "STATUS", in: text).first
            // The task's own DESCRIPTION, beside any its alarms have.
            let descriptions = ICalendarLines.values(of: "DESCRIPTION", in: text)
            guard summary == race.write.sentSummary, status == race.write.sentStatus,
                descriptions.contains(race.write.description)
            else {
                throw Violation(
                    invariant: "no write is lost to a racing one",
                    detail:
                        "\(race.laptop) sent '\(race.write.sentSummary)' (\(race.write.sentStatus ?? "no status")) at step \(race.step) and another client "
                        + "added the description '\(race.write.description)' over the same version; the server holds '\(summary)' "
                        + "(\(status ?? "no status")), descriptions \(descriptions)")
            }
        }
    }
}

/// Ids drawn from a seed, one after another, for items a laptop of the simulation makes.
final class SeededIDs: @unchecked Sendable {
    private var generator: SeededGenerator
    private let lock = NSLock()

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    func next() -> UUID {
        lock.lock()
        defer { lock.unlock() }
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
