import ToDoModel
import ToDoStorage

/// How a user names an item: by its number, its id, or a unique prefix of its id.
public enum ItemReference: Equatable, Sendable, CustomStringConvertible {
    case number(Int)
    case id(UUID)
    /// The start of an id, as typed; it matches in any letter case.
    case idPrefix(String)

    /// The fewest characters an id prefix may have.
    public static let minimumPrefixLength = 4

    /// Reads a reference as typed. Digits alone are always a number, so `12` never means an id
    /// that happens to start with "12"; a full UUID is an id; 4 or more hex digits and dashes are
    /// an id prefix. Surrounding white space is ignored.
    public init(parsing text: String) throws(ItemManagerError) {
        let trimmed = Whitespace.trimmingSpaces(text)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            guard let number = Int(trimmed), number > 0 else { throw .invalidReference(text) }
            self = .number(number)
        } else if let id = UUID(uuidString: trimmed) {
            self = .id(id)
        } else if trimmed.count >= Self.minimumPrefixLength, trimmed.count < 36,
            trimmed.allSatisfy({ $0.isHexDigit || $0 == "-" })
        {
            self = .idPrefix(trimmed)
        } else {
            throw .invalidReference(text)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): return String(number)
        case .id(let id): return id.uuidString
        case .idPrefix(let prefix): return prefix
        }
    }
}
