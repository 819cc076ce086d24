/// Members of a stored object that this version of todo does not know (another program's, or a
/// newer todo's), kept as the text they were read as so that the next write puts them back.
struct UnknownMembers: Equatable, Sendable {
    /// The members as compact JSON, `"key":value` each, separated by commas; empty when there are none.
    var text: [UInt8] = []

    var isEmpty: Bool { text.isEmpty }
}
