import Foundation

/// Values collected from several threads at once.
public final class SharedLog<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    public init() {}

    public func append(_ element: Element) {
        lock.lock()
        elements.append(element)
        lock.unlock()
    }

    public var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return elements
    }

    public var count: Int { all.count }
}
