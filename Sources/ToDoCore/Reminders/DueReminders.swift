import ToDoModel
import ToDoStorage

/// A reminder whose time has come: the item, which of its alarms, and when it rang.
public struct DueReminder: Equatable, Sendable {
    public let item: ToDoItem
    public let alarm: Alarm
    /// When it rang, in seconds since 1970.
    public let moment: Double
}

extension ItemManager {
    /// The reminders of open items that ring within `window` (seconds since 1970), oldest first:
    /// a done item rings no more. A whole day's reminder counts from its start in `rules`. Only
    /// items with alarms are read whole (a list keeps the others in its file's text).
    public func reminders(ringingIn window: ClosedRange<Double>, rules: TimeZoneRules) -> [DueReminder] {
        let local = CivilTime(rules: rules)
        var due: [DueReminder] = []
        for stored in openStored where stored.hasAlarms {
            let item = stored.item
            for alarm in item.alarms where alarm.rings {
                guard let moment = alarm.moment(of: item, local: local), window.contains(moment) else { continue }
                due.append(DueReminder(item: item, alarm: alarm, moment: moment))
            }
        }
        return due.sorted { ($0.moment, $0.item.number) < ($1.moment, $1.item.number) }
    }
}

/// What `todo remind` keeps beside the list (its path with `.reminded` added), so that each
/// reminder is shown once: when it last ran, and the reminders it showed that a later run could
/// still find. Only this machine's: it does not travel with the items.
public struct ReminderLog: Equatable, Sendable {
    /// A reminder shown: its item and the moment it rang (a repeating item's next occurrence
    /// rings anew).
    public struct Shown: Hashable, Sendable {
        public var id: UUID
        public var moment: Double

        public init(id: UUID, moment: Double) {
            self.id = id
            self.moment = moment
        }
    }

    /// When `todo remind` last ran, in seconds since 1970.
    public var lastRun: Double?
    public var shown: Set<Shown> = []

    public init(lastRun: Double? = nil, shown: Set<Shown> = []) {
        self.lastRun = lastRun
        self.shown = shown
    }

    /// How far back a run looks for reminders not shown: since the last run (a machine asleep
    /// missed them), and a day at least (a first run, a reminder added for a time just past), a
    /// week at most.
    public static let reachBack = 86_400.0
    public static let longestReachBack = 7 * 86_400.0

    /// The most reminders of one item a run rings (a task from a server may hold thousands of
    /// alarms), and the most of all items.
    public static let mostOfOneItem = 10
    public static let mostInOneRun = 100

    /// `due` (oldest first) split as a run takes them: those it rings, at most `mostOfOneItem` of
    /// an item and `mostInOneRun` in all; those of an item past its share, which are taken as
    /// shown and never ring; and those past the run's share, which the next run rings.
    public static func shares(
        of due: [DueReminder]
    ) -> (ringing: [DueReminder], passedOver: [DueReminder], later: [DueReminder]) {
        var ringing: [DueReminder] = [], passedOver: [DueReminder] = [], later: [DueReminder] = []
        var perItem: [UUID: Int] = [:]
        for reminder in due {
            if perItem[reminder.item.id, default: 0] >= mostOfOneItem {
                passedOver.append(reminder)
            } else if ringing.count >= mostInOneRun {
                later.append(reminder)
            } else {
                perItem[reminder.item.id, default: 0] += 1
                ringing.append(reminder)
            }
        }
        return (ringing, passedOver, later)
    }

    /// The moments a run at `now` looks at.
    public func window(now: Double) -> ClosedRange<Double> {
        let since = min(lastRun ?? now, now - Self.reachBack)
        return max(since, now - Self.longestReachBack)...now
    }

    /// Those of `reminders` not shown yet.
    public func notShown(_ reminders: [DueReminder]) -> [DueReminder] {
        reminders.filter { !shown.contains(Shown(id: $0.item.id, moment: $0.moment)) }
    }

    /// The log after a run at `now` showed `reminders`: what no later run can find is forgotten,
    /// so the file stays as small as a week's reminders.
    public func after(showing reminders: [DueReminder], now: Double) -> ReminderLog {
        var log = self
        log.lastRun = now.rounded(.down)
        log.shown.formUnion(reminders.map { Shown(id: $0.item.id, moment: $0.moment) })
        log.shown = log.shown.filter { $0.moment >= now - Self.longestReachBack }
        return log
    }

    static let currentVersion = 1

    /// The log as its file holds it: `{"version":1,"lastRun":…,"shown":[{"id":"…","at":…}]}`.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + shown.count * 80)
        write(to: &writer)
        writer.bytes.append(UInt8(ascii: "\n"))
        return writer.bytes
    }

    /// Reads the log's bytes; `file` names it in errors.
    public init(bytes: [UInt8], file: String) throws(StoreError) {
        do {
            self = try JSONScanner.scanDocument(in: bytes) { scanner throws(JSONDecodingError) in
                try Self(scanning: &scanner, path: { "" })
            }
        } catch {
            throw .unreadable(file, error, currentVersion: Self.currentVersion)
        }
    }

    /// The reminders shown, oldest first, as the file lists them.
    private var shownInOrder: [Shown] {
        get { shown.sorted { ($0.moment, $0.id.uuidString) < ($1.moment, $1.id.uuidString) } }
        set { shown = Set(newValue) }
    }

    /// The version the log was written in (`currentVersion` for one this todo wrote).
    private var version: Int {
        get { Self.currentVersion }
        set {}
    }
}

// MARK: The file's members, declared once

extension ReminderLog: JSONRecord {
    package static let unread = ReminderLog()

    package static let members: [JSONMember<ReminderLog>] = [
        .version(currentVersion, { $1(&$0.version) }),
        .optional("lastRun", { $1(&$0.lastRun) }, .number()),
        .always("shown", { $1(&$0.shownInOrder) }, .array(of: .of(Shown.self)))
    ]

    package static let missing = "expected the version"
}

extension ReminderLog.Shown: JSONRecord {
    package static let unread = Self(id: .unread, moment: 0)

    package static let members: [JSONMember<Self>] = [
        .required("id", { $1(&$0.id) }, .id),
        .required("at", { $1(&$0.moment) }, .number())
    ]

    package static let missing = "expected an id and an at"
}
