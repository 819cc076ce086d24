import ToDoModel
import ToDoStorage

/// A change to one optional field: keep it, set it, or remove it.
public enum FieldChange<Value: Equatable & Sendable>: Equatable, Sendable {
    case keep
    case set(Value)
    case remove

    /// The field's new value, given its current one.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: return current
        case .set(let value): return value
        case .remove: return nil
        }
    }

    /// Whether the change gives the field a value.
    public var isSet: Bool {
        if case .set = self { true } else { false }
    }
}

/// What an edit changes on one item (`todo edit`): a new title, and each optional field kept, set
/// or removed. `location` replaces the whole place; `address` and `coordinate` change the place the
/// item has, or the one `location` gives it. `ItemManager.edit(itemWithID:_:)` applies it under
/// the list's rules.
public struct ItemEdit: Equatable, Sendable {
    public var title: String?
    /// A day or a time (`ToDoItem.due`).
    public var due: FieldChange<ItemDate>
    /// RRULE text (`ToDoItem.repeatRule`).
    public var repeatRule: FieldChange<String> = .keep
    public var itemDescription: FieldChange<String>
    public var location: FieldChange<Location>
    public var address: FieldChange<String>
    public var coordinate: FieldChange<Coordinate>
    public var priority: FieldChange<Int>
    public var start: FieldChange<ItemDate>
    public var parent: FieldChange<UUID>
    /// Tags to add after the item's own (those it has already stay where they are).
    public var addedTags: [String]
    /// Tags to take away, ignoring case.
    public var removedTags: [String]
    /// Whether to take every tag away, before adding `addedTags`.
    public var clearsTags: Bool
    /// Each text field changed (`ItemField.texts`).
    public var texts: [ItemField: FieldChange<String>] = [:]
    /// Begun (`todo start`) or not (`todo stop`); `nil` keeps it. Only an open item is begun.
    public var inProgress: Bool?
    /// The reminders, all at once: those given (a reminder the item has with the same trigger
    /// keeps what a phone gave it, its sound say), or none.
    public var alarms: FieldChange<[Alarm]> = .keep

    public init(
        title: String? = nil, due: FieldChange<ItemDate> = .keep, itemDescription: FieldChange<String> = .keep,
        location: FieldChange<Location> = .keep, address: FieldChange<String> = .keep,
        coordinate: FieldChange<Coordinate> = .keep, priority: FieldChange<Int> = .keep,
        addedTags: [String] = [], removedTags: [String] = [], clearsTags: Bool = false,
        start: FieldChange<ItemDate> = .keep,
        parent: FieldChange<UUID> = .keep, inProgress: Bool? = nil
    ) {
        self.title = title
        self.due = due
        self.itemDescription = itemDescription
        self.location = location
        self.address = address
        self.coordinate = coordinate
        self.priority = priority
        self.start = start
        self.parent = parent
        self.addedTags = addedTags
        self.removedTags = removedTags
        self.clearsTags = clearsTags
        self.inProgress = inProgress
    }

    /// Whether the edit would leave every field as it is.
    public var changesNothing: Bool {
        title == nil && due == .keep && itemDescription == .keep && location == .keep && address == .keep
            && coordinate == .keep && priority == .keep && start == .keep && parent == .keep && repeatRule == .keep
            && addedTags.isEmpty && removedTags.isEmpty && !clearsTags
            && texts.values.allSatisfy { $0 == .keep } && inProgress == nil && alarms == .keep
    }

    /// The tags an item with `tags` has after the edit.
    func applied(toTags tags: [String]) -> [String] {
        let kept = clearsTags ? [] : tags.filter { !Tags.contains(removedTags, $0) }
        return Tags.normalized(kept + addedTags)
    }
}

extension ItemManager {
    /// Adds a note to the item with `id`, dated now (by the manager's clock), and returns the item.
    public mutating func annotate(itemWithID id: UUID, _ text: String) throws(ItemManagerError) -> ToDoItem {
        guard let current = item(withID: id) else { throw .noSuchItem(.id(id)) }
        var annotated = current
        annotated.annotations.append(Annotation(time: currentTime(), text: text))
        return try updateItem(withID: id) { $0 = annotated }
    }

    /// Moves the due of the item with `id`, and its start with it, later by `period` from where
    /// they are (`DatePeriod.moving`: a time keeps its clock time in `rules`' zone, a month later
    /// keeps the day of the month or the month's last), as an edit. Refused for an item with
    /// neither (`nothingToPostpone`), and where either would pass the year 9999.
    public mutating func postpone(
        itemWithID id: UUID, by period: DatePeriod, rules: TimeZoneRules
    ) throws(ItemManagerError) -> ToDoItem {
        guard let item = item(withID: id) else { throw .noSuchItem(.id(id)) }
        guard item.due != nil || item.start != nil else { throw .nothingToPostpone(item) }
        var edit = ItemEdit()
        // A series that keeps the month's end stays on it when moved by months (along its rule).
        let monthEnd =
            period.unit == .day || period.unit == .week ? nil : item.repeatRule.flatMap { try? RepeatRule($0) }
        for (date, change) in [(item.due, \ItemEdit.due), (item.start, \ItemEdit.start)] {
            guard let date else { continue }
            guard var moved = period.moving(date, rules: rules) else { throw .postponedPastTheYears(item) }
            // Only a date on its rule's day (not one postponed by days off it before).
            if let monthEnd, Self.onTheDay(of: monthEnd, date, rules: rules) == date {
                moved = Self.onTheDay(of: monthEnd, moved, rules: rules)
            }
            edit[keyPath: change] = .set(moved)
        }
        return try self.edit(itemWithID: id, edit)
    }

    /// `date` on the day of its month that `rule` gives, when it is a monthly rule keeping the
    /// month's end (`RepeatRule.monthEndDay`); a time keeps its clock time. Else `date`.
    static func onTheDay(of rule: RepeatRule, _ date: ItemDate, rules: TimeZoneRules) -> ItemDate {
        let local = CivilTime(rules: rules)
        let number = date.day(local: local).number, day = CalendarDay(number: number)
        guard let dayOfMonth = rule.monthEndDay(inMonthOf: CalendarDay.length(ofMonth: day.month, year: day.year)),
            dayOfMonth != day.day, let target = Day(year: day.year, month: day.month, day: dayOfMonth)
        else { return date }
        switch date {
        case .day: return .day(target)
        case .time(let moment):
            let shift = (target.number - number) * 86_400
            return .time(Double(local.moment(readingSkipped: local.localSeconds(moment) + shift)))
        }
    }

    /// Applies `edit` to the item with `id` and returns the item as it is now. The edit's own rules
    /// come first: an address or coordinate needs a place (the item's, or a new one in the same
    /// edit), and a place needs a name; then the rules of every change (a single-line title, an
    /// open item unlike every other open item). Nothing changes when one refuses, nor when the edit
    /// leaves every field as it was (`changes` then shows none). A repeat rule the edit sets is read
    /// as `repeatGiven` says, from the due the item has after the edit (`RepeatGiven`).
    public mutating func edit(
        itemWithID id: UUID, _ edit: ItemEdit, repeatGiven: RepeatGiven = .asWritten
    ) throws(ItemManagerError) -> ToDoItem {
        guard let current = item(withID: id) else { throw .noSuchItem(.id(id)) }
        var location = edit.location.applied(to: current.location)
        if edit.address != .keep || edit.coordinate != .keep {
            guard var place = location else { throw .noLocation(current) }
            place.address = edit.address.applied(to: place.address)
            place.coordinate = edit.coordinate.applied(to: place.coordinate)
            location = place
        }
        try Self.checkPlaceHasName(location)
        let title = edit.title ?? current.title
        let due = edit.due.applied(to: current.due)
        let repeatRule = edit.repeatRule.applied(to: current.repeatRule)
        let itemDescription = edit.itemDescription.applied(to: current.itemDescription)
        let priority = edit.priority.applied(to: current.priority)
        let start = edit.start.applied(to: current.start)
        let parent = edit.parent.applied(to: current.parent)
        if let parent, parent != current.parent { try checkParent(parent, of: id) }
        var edited = current
        edited.title = title
        edited.due = due
        edited.repeatRule = repeatRule
        edited.itemDescription = itemDescription
        edited.location = location
        edited.priority = priority
        edited.tags = edit.applied(toTags: current.tags)
        // A tag taken away leaves the title too, where a todo.txt line holds it as a word.
        edited.title = Tags.title(title, without: current.tags.filter { !Tags.contains(edited.tags, $0) })
        edited.start = start
        edited.parent = parent
        for (field, change) in edit.texts { edited[text: field] = change.applied(to: current[text: field]) }
        if edit.repeatRule.isSet { keepingMonthEnd(of: &edited, repeatGiven) }
        followRepeatZone(of: &edited, before: current, ruleGiven: edit.repeatRule.isSet)
        // Another list, named in another case than its items spell it, is theirs.
        if let list = edited.list, !ListName.same(list, current.list) { edited.list = listName(asTheItemsSpell: list) }
        if let alarms = edit.alarms.applied(to: current.alarms) {
            edited.alarms = alarms.map { given in current.alarms.first { $0.trigger == given.trigger } ?? given }
        } else {
            edited.alarms = []
        }
        if let inProgress = edit.inProgress {
            if inProgress, current.done { throw .beginningDone(current) }
            edited.inProgress = inProgress
        }
        // An edit that leaves every field as it is changes nothing, and records no change; a
        // coordinate moved by less than the book's tolerance is still moved.
        guard ItemField.differ(edited, current) || edited.location?.coordinate != current.location?.coordinate else {
            return current
        }
        return try updateItem(withID: id) { $0 = edited }
    }
}
