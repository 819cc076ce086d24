import ToDoModel
import ToDoStorage

/// What an error of the library means to whoever asked for the operation: the command line's exit
/// codes follow it. Every error type the library throws says the outcome of each of its cases,
/// without a default, so that a new case is decided where it is made.
public enum ErrorOutcome: Equatable, Sendable {
    /// The request cannot be carried out as given: a title, date, reference, rule or coordinate
    /// that is not valid.
    case invalidRequest
    /// No item or list matches a reference, or an id prefix matches several.
    case notFound
    /// A rule of the list refused the change: an open twin, open subtasks left behind, a repeat
    /// todo cannot follow, a sync that would delete too much.
    case refused
    /// A file of the list cannot be read (not JSON, wrong types, from a newer todo) or is not one
    /// todo may use.
    case unreadableList
    /// An undo or redo was refused: nothing (more) to take back, or a later change depends on it.
    case undoRefused
    /// The source of an import is not in its format.
    case malformedSource
    /// Anything else: a file system call, the lock held too long, a server.
    case failed
}

/// An error whose outcome is known (`ErrorOutcome`).
public protocol ErrorWithOutcome: Error {
    var outcome: ErrorOutcome { get }
}

extension ItemManagerError: ErrorWithOutcome {
    public var outcome: ErrorOutcome {
        switch self {
        case .noSuchItem, .ambiguousReference, .noSuchList: return .notFound
        case .duplicateContent, .duplicateID, .duplicateNumber, .openSubtasks, .listTaken, .listHoldsItems,
            .unfollowableRepeat,
            .beginningDone, .subtaskOfAnother, .nothingToPostpone, .postponedPastTheYears:
            return .refused
        case .numberOutOfRange: return .failed
        case .emptyTitle, .multilineTitle, .controlCharacters, .invalidCoordinate, .invalidDueDate, .invalidReference,
            .noLocation,
            .emptyLocationName, .invalidPriority, .invalidPercent, .invalidTag, .parentCycle, .invalidRepeatRule,
            .repeatWithoutDue,
            .reminderWithoutDue:
            return .invalidRequest
        }
    }
}

extension UndoError: ErrorWithOutcome {
    public var outcome: ErrorOutcome {
        switch self {
        case .notEnough, .splits, .unknownChange, .alreadyReverted, .changedSince, .refused: return .undoRefused
        }
    }
}

extension StoreError: ErrorWithOutcome {
    public var outcome: ErrorOutcome { isUnreadableFile ? .unreadableList : .failed }
}

extension SyncError: ErrorWithOutcome {
    public var outcome: ErrorOutcome {
        switch self {
        case .notSetUp, .server: return .failed
        case .deletesTooMuch: return .refused
        }
    }
}

extension CalDAVError: ErrorWithOutcome {
    /// A server that cannot be reached, refuses the password or answers wrongly: nothing was lost.
    public var outcome: ErrorOutcome { .failed }
}

extension HTTPError: ErrorWithOutcome {
    public var outcome: ErrorOutcome { .failed }
}

extension GeocodingError: ErrorWithOutcome {
    public var outcome: ErrorOutcome { .failed }
}

extension ImportError: ErrorWithOutcome {
    public var outcome: ErrorOutcome { .malformedSource }
}

extension XMLSyntaxError: ErrorWithOutcome {
    /// Only a server's answers are XML: one that cannot be read is the server's failure.
    public var outcome: ErrorOutcome { .failed }
}

extension DueDateError: ErrorWithOutcome {
    public var outcome: ErrorOutcome { .invalidRequest }
}

extension RepeatRuleError: ErrorWithOutcome {
    public var outcome: ErrorOutcome { .invalidRequest }
}
