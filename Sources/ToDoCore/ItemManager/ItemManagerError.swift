import ToDoModel
import ToDoStorage

/// Why `ItemManager` refused a change or a look-up. Nothing changes when one is thrown.
public enum ItemManagerError: Error, Equatable, Sendable {
    /// The title is empty or only white space (rule 4).
    case emptyTitle
    /// The title holds a line break (rule 4).
    case multilineTitle(String)
    /// A text field (`ItemField.texts`) holds a line break or another control character.
    case controlCharacters(ItemField, String)
    /// A coordinate component is not finite or out of range.
    case invalidCoordinate(Coordinate)
    /// The due date is not within the years 1 to 9999.
    case invalidDueDate(Double)
    /// An item number or next number is beyond `ToDoItem.largestNumber`.
    case numberOutOfRange(Int)
    /// An open item already has the same content (rules 2 and 3).
    case duplicateContent(existing: ToDoItem)
    /// An item already has this id (rule 1).
    case duplicateID(existing: ToDoItem)
    /// An item already has this number (rule 1); only stored data can try this.
    case duplicateNumber(existing: ToDoItem)
    /// No item matches the reference.
    case noSuchItem(ItemReference)
    /// No item is in the list of that name.
    case noSuchList(String)
    /// A rename would give a list the name of another list that holds items: the two would be one
    /// for good (`todo lists remove <list> --to <other>` merges them when that is meant).
    case listTaken(from: String, to: String, holding: Int)
    /// A list that holds items is removed without a list to move them to.
    case listHoldsItems(String, holding: Int)
    /// More than one item's id starts with the prefix.
    case ambiguousReference(ItemReference, matches: [ToDoItem])
    /// The text is not a number, a UUID or an id prefix of at least four characters.
    case invalidReference(String)
    /// An edit changes the address or coordinate of an item that has no place, and gives none.
    case noLocation(ToDoItem)
    /// A place's name is empty or only white space.
    case emptyLocationName
    /// A priority outside 1...9.
    case invalidPriority(Int)
    /// A `percentComplete` outside 0 to 100.
    case invalidPercent(Int)
    /// A tag that is empty or holds white space or a control character.
    case invalidTag(String)
    /// The parent given is the item itself or one of its subtasks.
    case parentCycle(parent: ToDoItem)
    /// The item is already a subtask of another (Taskwarrior's `depends:` would take it away).
    case subtaskOfAnother(subtask: ToDoItem, parent: ToDoItem)
    /// Checking or removing the item would leave its open subtasks behind.
    case openSubtasks(parent: ToDoItem, subtasks: [ToDoItem])
    /// A repeat rule that is not RRULE text todo reads.
    case invalidRepeatRule(RepeatRuleError)
    /// A repeating item without a due date: there is nothing to repeat from.
    case repeatWithoutDue(ToDoItem)
    /// A reminder counted from a due (or start) the item does not have.
    case reminderWithoutDue(ToDoItem)
    /// The item repeats by a rule todo cannot follow (`RepeatRule.canBeFollowed`), so checking it
    /// cannot say when it is next due.
    case unfollowableRepeat(ToDoItem)
    /// A done item cannot be begun (`todo start`): it is to be opened again first.
    case beginningDone(ToDoItem)
    /// An item with neither a due nor a start has nothing to postpone.
    case nothingToPostpone(ToDoItem)
    /// Postponing would move the item's due or start past the year 9999.
    case postponedPastTheYears(ToDoItem)
}

extension ItemManagerError: CustomStringConvertible {
    /// The most subtasks an error names one by one.
    static let mostSubtasksNamed = 10

    public var description: String {
        switch self {
        case .emptyTitle:
            return "the title is empty"
        case .multilineTitle(let title):
            return "the title must be a single line: \(quoted(title))"
        case .controlCharacters(let field, let text):
            // As JSON writes it: the characters themselves are not to reach a terminal.
            return "the \(field.name) must be one line without control characters: "
                + String(decoding: JSONValue.string(text).serializedCompactly(), as: UTF8.self)
        case .invalidCoordinate(let coordinate):
            return "the coordinate \(coordinate.latitude),\(coordinate.longitude) is out of range"
                + " (latitude -90...90, longitude -180...180)"
        case .invalidDueDate(let timestamp):
            return "the due date \(JSONValue.literal(for: timestamp)) is not within the years 1 to 9999"
        case .numberOutOfRange(let number):
            return "the item number \(number) is beyond the largest, \(ToDoItem.largestNumber)"
        case .duplicateContent(let existing):
            return "an open item with the same content already exists: \(existing.label)"
        case .duplicateID(let existing):
            return "an item with id \(existing.id.uuidString) already exists: \(existing.label)"
        case .duplicateNumber(let existing):
            return "an item with number \(existing.number) already exists: \(existing.label)"
        case .noSuchItem(let reference):
            return "no item matches \(quoted(reference.description))"
        case .ambiguousReference(let reference, let matches):
            return "\(quoted(reference.description)) matches more than one item: "
                + matches.map(\.label).joined(separator: ", ")
        case .invalidReference(let text):
            return "\(quoted(text)) is not an item number, id, or id prefix of at least"
                + " \(ItemReference.minimumPrefixLength) characters"
        case .noLocation(let item):
            return "item \(item.number) has no location to give an address or coordinate to"
        case .emptyLocationName:
            return "the location name is empty"
        case .invalidPercent(let percent):
            return "the percentage \(percent) is not from 0 to 100"
        case .invalidPriority(let priority):
            return "the priority \(priority) is not within 1 (highest) to 9 (lowest)"
        case .parentCycle(let parent):
            return "\(parent.label) is the item itself or one of its subtasks; an item cannot be its own subtask"
        case .subtaskOfAnother(let subtask, let parent):
            return
                "\(subtask.label) is already a subtask of \(parent.label); nothing was changed (to move it: todo edit \(subtask.number) --parent <ref>)"
        case .openSubtasks(let parent, let subtasks):
            // Named up to a screenful: a chain of thousands is said in a line, not thousands.
            let shown =
                subtasks.prefix(Self.mostSubtasksNamed).map(\.label).joined(separator: ", ")
                + (subtasks.count > Self.mostSubtasksNamed
                    ? " and \(subtasks.count - Self.mostSubtasksNamed) more" : "")
            let refs =
                subtasks.count > Self.mostSubtasksNamed
                ? "todo list --parent \(parent.number) shows them"
                : "or give them too: \(([parent] + subtasks).map { String($0.number) }.joined(separator: ","))"
            return "\(parent.label) has open subtasks: \(shown); check or remove them first, \(refs)"
        case .invalidRepeatRule(let error):
            return error.description
        case .noSuchList(let name):
            return "no item is in the list '\(name)'; todo lists shows the lists"
        case .listTaken(let from, let to, let holding):
            return
                "the list '\(to)' holds \(counted(holding, "item")) already; renaming '\(from)' to it would merge the two lists for good;"
                + " to merge them, todo lists remove \(from) --to \(to)"
        case .listHoldsItems(let name, let holding):
            return
                "the list \(name) holds \(counted(holding, "item")); give --to <list> to move them, as todo lists remove \(name) --to default"
        case .nothingToPostpone(let item):
            return "\(item.label) has no due date to postpone; give it one with todo edit \(item.number) --due <date>"
        case .postponedPastTheYears(let item):
            return "\(item.label) would be moved past the year 9999"
        case .reminderWithoutDue(let item):
            return
                "a reminder before the due needs a due date\(item.number > 0 ? ": \(item.label)" : ""); give --due, or --no-remind"
        case .repeatWithoutDue(let item):
            // An item being added (no number yet) has no repeat to take away.
            return "a repeating item needs a due date to repeat from"
                + (item.number > 0 ? ": \(item.label); give --due, or --no-repeat" : "; give --due too")
        case .unfollowableRepeat(let item):
            return "todo cannot work out when \(item.label) is next due from its repeat rule \(item.repeatRule ?? "")"
                + " (todo follows FREQ=DAILY, WEEKLY, MONTHLY and YEARLY with INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH,"
                + " BYSETPOS and WKST); change it with edit \(item.number) --repeat, or end it with edit \(item.number) --no-repeat"
        case .beginningDone(let item):
            return "\(item.label) is done; open it again with todo uncheck \(item.number) to begin it"
        case .invalidTag(let tag):
            return tag.isEmpty
                ? "a tag is empty" : "the tag \(quoted(tag)) holds a space or control character; a tag is one word"
        }
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
}

extension ToDoItem {
    /// How messages name an item: its number and quoted title, as `3 "Call Mom"`.
    public var label: String { "\(number) \"\(title)\"" }
}
