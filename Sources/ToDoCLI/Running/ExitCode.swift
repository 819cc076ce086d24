import ToDoCore

/// The exit status of `todo`, documented in the README and in `todo help`; stable across versions.
public enum ExitCode: Int32, CaseIterable, Sendable {
    case success = 0
    /// Any failure not listed below: reading or writing a file, the lock held too long.
    case failure = 1
    /// No item matches a reference, or an id prefix matches several.
    case noSuchItem = 2
    /// A rule of the list refused the change: a uniqueness rule, open subtasks a check or removal
    /// would leave behind, a repeat rule `check` cannot follow.
    case refused = 3
    /// The data file cannot be read (not JSON, wrong types) or is from a newer version, or a file of
    /// the list is not one todo uses (see `UnusableFileReason`).
    case unreadableStore = 4
    /// An undo or redo was refused: nothing (more) to take back, or a later change depends on it.
    case undoRefused = 5
    /// The command line or a setting is wrong: unknown command or option, missing or malformed
    /// argument, invalid date.
    case usage = 64
    /// The source given to `todo import` is not in the format (bad JSON, a malformed line).
    case badImportSource = 65

    /// What the code means, for help.
    var meaning: String {
        switch self {
        case .success: return "success"
        case .failure:
            return
                "any other failure (reading or writing a file, standard output, lock timeout, a sync server unreachable, refusing the password or answering wrongly)"
        case .noSuchItem: return "no item matches a ref, or an id prefix matches several"
        case .refused:
            return
                "a rule of the list refused the change (an open twin, open subtasks left behind, a repeat todo cannot follow, a sync deleting too much)"
        case .unreadableStore:
            return
                "the data file cannot be read or is from a newer todo, or a file of the list is not one todo uses (a FIFO or device, over 1 GiB, another user's, a planted link), or another program cut it short while todo read it"
        case .undoRefused: return "undo or redo refused: nothing to take back, or a later change depends on it"
        case .badImportSource: return "the source of an import is malformed (nothing was imported)"
        case .usage: return "usage error: unknown command or option, bad argument, invalid date or setting"
        }
    }

    /// The code for an error that ended a command: a `CommandError` carries its own, the library's
    /// errors follow their outcome; an error of the system's libraries is a failure.
    init(for error: Error) {
        if let error = error as? CommandError {
            self = error.code
        } else if let error = error as? any ErrorWithOutcome {
            self.init(error.outcome)
        } else {
            self = .failure
        }
    }

    /// The code for an error of the library.
    init(_ outcome: ErrorOutcome) {
        switch outcome {
        case .invalidRequest: self = .usage
        case .notFound: self = .noSuchItem
        case .refused: self = .refused
        case .unreadableList: self = .unreadableStore
        case .undoRefused: self = .undoRefused
        case .malformedSource: self = .badImportSource
        case .failed: self = .failure
        }
    }
}
