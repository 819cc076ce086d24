import ToDoModel
import ToDoStorage

/// Which of the calendars a server lists `todo sync setup` takes: the one of the name asked for
/// (its exact name first, then in any letter case), one to make when none has it, or, when no
/// name was asked for, the only calendar that holds tasks. Calendars that hold no tasks (events
/// only) are never taken.
public enum CalendarChoice: Equatable, Sendable {
    /// This calendar.
    case found(CalDAVClient.Calendar)
    /// None has the name asked for: a calendar of that name is to be made, for tasks only.
    case toMake(name: String)
    /// No name was asked for, and no calendar holds tasks.
    case noneHoldsTasks
    /// No name was asked for, and several calendars hold tasks: their names (or last path segments).
    case several([String])

    public init(named name: String?, among calendars: [CalDAVClient.Calendar]) {
        let tasks = calendars.filter(\.holdsTasks)
        if let name {
            if let named = tasks.first(where: { $0.displayName == name })
                ?? tasks.first(where: { $0.displayName?.lowercased() == name.lowercased() })
            {
                self = .found(named)
            } else {
                self = .toMake(name: name)
            }
        } else if tasks.count == 1 {
            self = .found(tasks[0])
        } else if tasks.isEmpty {
            self = .noneHoldsTasks
        } else {
            self = .several(tasks.map { $0.displayName ?? $0.url.lastPathComponent })
        }
    }
}
