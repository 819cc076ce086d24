/// The order of month and day in numeric dates, for input and display.
public enum DateOrder: String, Sendable, CaseIterable {
    /// `01/10/22` is 10 January 2022 (the book's and the default order).
    case monthFirst = "mdy"
    /// `01/10/22` is 1 October 2022.
    case dayFirst = "dmy"

    /// The display pattern, as it is named in help and errors.
    public var pattern: String {
        switch self {
        case .monthFirst: return "MM/dd/yy"
        case .dayFirst: return "dd/MM/yy"
        }
    }
}
