import ToDoModel
import ToDoStorage

/// Which items `todo list` and `todo export` show, and in what order: filters, a sort key, the
/// direction and a limit. An empty query keeps the book's order: open items as added, then done
/// items as checked.
public struct ItemQuery: Equatable, Sendable {
    /// What items can be sorted by.
    public enum SortKey: String, CaseIterable, Sendable {
        case number, due, title, created, priority, project
    }

    /// Text to find, ignoring case, in the title, description, location name or address.
    public var search: String?
    /// Words each of which is found as `search` is (a Taskwarrior filter's plain words).
    public var words: [String] = []
    /// Only items due before this moment.
    public var dueBefore: Double?
    /// Only items due at or after this moment.
    public var dueFrom: Double?
    /// Only open items whose due is past: a time that has passed, or a day before today (in the
    /// time zone of the formatter given to `apply`; `DueDateFormatter.isOverdue`).
    public var overdue = false
    /// Only open items in progress (`todo start`; Taskwarrior's active tasks).
    public var inProgress = false
    /// Only open items that wait for their start date (after today).
    public var waiting = false
    /// Only items without a due date.
    public var noDue = false
    /// Only items with a repeat rule.
    public var repeating = false
    /// Only items with every one of these tags (ignoring case).
    public var tags: [String] = []
    /// Only items with none of these tags (Taskwarrior's `-tag`).
    public var withoutTags: [String] = []
    /// Only items in this project or one of its parts (`ProjectName.contains`).
    public var project: String?
    /// Only items of this list (`.some(nil)`: the default list); `nil` for every list.
    public var list: String??
    /// Only items with a priority of this level.
    public var priority: PriorityLevel?
    /// Only items of exactly this priority (a todo.txt letter: `pri:B` is 2).
    public var exactPriority: Int?
    public var sort: SortKey?
    public var reverse = false
    /// At most this many items, open ones first.
    public var limit: Int?

    public init() {}

    /// Whether the query changes nothing: the list's own order, every item.
    public var isEmpty: Bool { self == ItemQuery() }

    /// The open and done items that match, each section sorted, then cut to the limit.
    public func apply(
        open: [ToDoItem], done: [ToDoItem], now: Date, dates: DueDateFormatter
    ) -> (open: [ToDoItem], done: [ToDoItem]) {
        let result = apply(
            open: open.map(StoredItem.init), done: done.map(StoredItem.init), now: now, dates: dates, latestDone: nil)
        return (result.open.map(\.item), result.done.map(\.item))
    }

    /// `apply` on the items as the list keeps them, keeping of the matching done items (in the
    /// order they were checked) only the `latestDone` checked last, as the list's own view shows
    /// them; `moreDone` counts the others, `cut` the matching items the limit left out.
    package func apply(
        open: [StoredItem], done: [StoredItem], now: Date, dates: DueDateFormatter,
        latestDone: Int?
    ) -> (open: [StoredItem], done: [StoredItem], moreDone: Int, cut: Int) {
        var done = isEmpty ? done : done.filter { matches($0, now: now, dates: dates) }
        var moreDone = 0
        if let latestDone, done.count > latestDone {
            moreDone = done.count - latestDone
            done = Array(done.suffix(latestDone))
        }
        guard !isEmpty else { return (open, done, moreDone, 0) }
        var open = arranged(open.filter { matches($0, now: now, dates: dates) }, dates: dates)
        done = arranged(done, dates: dates)
        var cut = 0
        if let limit {
            cut = max(open.count + done.count - limit, 0)
            open = Array(open.prefix(limit))
            done = Array(done.prefix(max(0, limit - open.count)))
        }
        return (open, done, moreDone, cut)
    }

    /// How many of `items` the filters let through (the sort and limit aside).
    package func countMatching(_ items: some Sequence<StoredItem>, now: Date, dates: DueDateFormatter) -> Int {
        isEmpty
            ? items.reduce(0) { count, _ in count + 1 }
            : items.reduce(0) { $0 + (matches($1, now: now, dates: dates) ? 1 : 0) }
    }

    func matches(_ item: StoredItem, now: Date, dates: DueDateFormatter) -> Bool {
        let due = item.due.map(dates.moment(of:))
        if noDue, due != nil { return false }
        if repeating, item.repeatRule == nil { return false }
        if let dueBefore, !(due.map { $0 < dueBefore } ?? false) { return false }
        if let dueFrom, !(due.map { $0 >= dueFrom } ?? false) { return false }
        if overdue, item.done || !(item.due.map { dates.isOverdue($0, now: now) } ?? false) { return false }
        if inProgress, item.done || !item.inProgress { return false }
        if waiting, item.done || !item.waitsForItsStart(now: now, dates: dates) { return false }
        if !tags.isEmpty || !withoutTags.isEmpty {
            let itemTags = item.tags
            if !tags.allSatisfy({ Tags.contains(itemTags, $0) })
                || withoutTags.contains(where: { Tags.contains(itemTags, $0) })
            {
                return false
            }
        }
        if let project, !ProjectName.contains(project, item.project) { return false }
        if let list, !ListName.same(list, item.list) { return false }
        if let priority, item.priority.map(PriorityLevel.init) != priority { return false }
        if let exactPriority, item.priority != exactPriority { return false }
        if search?.isEmpty == false || !words.isEmpty {
            let fields = [item.title, item.itemDescription, item.location?.name, item.location?.address]
            for text in (search.map { [$0] } ?? []) + words where !text.isEmpty {
                guard fields.contains(where: { $0.map { TextComparison.contains($0, ignoringCase: text) } ?? false })
                else { return false }
            }
        }
        return true
    }

    /// Sorted by the key (stable: ties keep list order), reversed if asked; items without the key
    /// (no due date, say) go last either way, in list order.
    private func arranged(_ items: [StoredItem], dates: DueDateFormatter) -> [StoredItem] {
        guard let sort else { return reverse ? items.reversed() : items }
        let withKey = items.filter { Self.hasKey($0, sort) }, withoutKey = items.filter { !Self.hasKey($0, sort) }
        let keyed = withKey.enumerated().map { (offset: $0.offset, item: $0.element) }
        let sorted = keyed.sorted { left, right in
            switch Self.compare(left.item, right.item, by: sort, dates: dates) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: return left.offset < right.offset
            }
        }.map(\.item)
        return (reverse ? sorted.reversed() : sorted) + withoutKey
    }

    private static func hasKey(_ item: StoredItem, _ key: SortKey) -> Bool {
        switch key {
        case .number, .title: return true
        case .due: return item.due != nil
        case .created: return item.createdAt != nil
        case .priority: return item.priority != nil
        case .project: return item.project != nil
        }
    }

    /// Dues compare where they lie on the clock in the zone of `dates`: a whole day after the
    /// times of that day (`DueDateFormatter.sortKey(of:)`).
    private static func compare(
        _ left: StoredItem, _ right: StoredItem, by key: SortKey, dates: DueDateFormatter
    ) -> ComparisonResult {
        func optional<Value: Comparable>(_ left: Value?, _ right: Value?) -> ComparisonResult {
            switch (left, right) {
            case let (left?, right?):
                return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedDescending
            case (_, nil): return .orderedAscending
            }
        }
        switch key {
        case .number: return optional(left.number, right.number)
        case .due: return optional(left.due.map(dates.sortKey(of:)), right.due.map(dates.sortKey(of:)))
        case .created: return optional(left.createdAt, right.createdAt)
        // 1 is the highest: ascending puts high first; todo.txt's letters after I, all 9, in their order.
        case .priority:
            let order = optional(left.priority, right.priority)
            guard order == .orderedSame, left.priority == 9 else { return order }
            return optional(left.todoTxtLetter ?? "", right.todoTxtLetter ?? "")
        case .title: return TextComparison.compare(left.title, right.title)
        // A project's parts follow it: `home` before `home.garden` before `homework`.
        case .project: return ProjectName.compare(left.project!, right.project!)
        }
    }
}

extension ToDoItem {
    /// Whether the item waits: its start date is after today, in the days `dates` counts (the
    /// user's zone); a list leaves it out of its own view until then.
    public func waitsForItsStart(now: Date, dates: DueDateFormatter) -> Bool {
        Self.waits(start: start, now: now, dates: dates)
    }

    /// Whether the item starts after it is due, their moments read in `dates`' zone (a day from
    /// its first moment): allowed, and worth a warning where it is given.
    public func startsAfterItsDue(dates: DueDateFormatter) -> Bool {
        guard let start, let due else { return false }
        return dates.moment(of: start) > dates.moment(of: due)
    }

    /// Whether an item with `start` waits (`waitsForItsStart`).
    static func waits(start: ItemDate?, now: Date, dates: DueDateFormatter) -> Bool {
        guard let start else { return false }
        return dates.daysFrom(now, to: start) > 0
    }
}

extension StoredItem {
    /// The todo.txt priority letter after `I` the item came with (`TodoTxtFormat`), if any: never
    /// in a written form.
    var todoTxtLetter: String? {
        guard !storage.keepsFieldsInText,
            case .string(let letter)? = storage.fields.foreignMembers.members(from: ForeignMembers.todoTxt)["pri"]
        else { return nil }
        return letter
    }

    /// `ToDoItem.waitsForItsStart`, reading the start alone.
    package func waitsForItsStart(now: Date, dates: DueDateFormatter) -> Bool {
        ToDoItem.waits(start: start, now: now, dates: dates)
    }
}

extension ItemQuery {
    /// Whether any of `items` has a priority no level names (2, from todo.txt's `(B)`): a list
    /// chosen from them shows todo.txt's letters, the same in every filtered view.
    package static func haveFinePriorities(_ items: [StoredItem]) -> Bool {
        items.contains { $0.priority.map { !PriorityLevel.isLevel($0) } ?? false }
    }

    /// How many done items the list's own view shows beside the open ones: those checked last.
    /// (`--done` and `--all` show them all.)
    public static let latestDoneShown = 10

    /// The list's own view of `items`: those that wait for their start (`waitsForItsStart`) set
    /// aside, and the positions of the others, not copies of them (a list of 100,000 is
    /// megabytes); `nil` positions when none waits.
    package static func settingAsideWaiting(
        in items: [StoredItem], now: Date, dates: DueDateFormatter
    ) -> (waiting: [StoredItem], shown: [Int]?) {
        // Read where the items are: through the array, each would be copied to be asked.
        // (Plain loops: no closure holds the span.)
        let span = items.span
        var first = span.count
        for index in span.indices where span[index].waitsForItsStart(now: now, dates: dates) {
            first = index
            break
        }
        guard first < span.count else { return ([], nil) }
        var waiting: [StoredItem] = [], shown = Array(0..<first)
        shown.reserveCapacity(span.count)
        for index in first..<span.count {
            if span[index].waitsForItsStart(now: now, dates: dates) {
                waiting.append(span[index])
            } else {
                shown.append(index)
            }
        }
        return (waiting, shown)
    }
}
