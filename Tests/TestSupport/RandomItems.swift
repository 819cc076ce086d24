import Foundation
import ToDoModel

/// Random items for tests that try thousands: any character in their texts (control characters,
/// escapes, non-ASCII, astral), dates and places or none, any number.
public enum RandomItems {
    public static func text(_ random: inout SeededGenerator) -> String {
        let pools: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x20...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFD,
            0x10000...0x10FFFF, 0x22...0x22, 0x5C...0x5C, 0x2F...0x2F
        ]
        return random.text(from: pools, maximumLength: 24)
    }

    public static func item(_ random: inout SeededGenerator) -> ToDoItem {
        var item = ToDoItem(
            title: text(&random),
            itemDescription: Bool.random(using: &random) ? text(&random) : nil,
            timestamp: Bool.random(using: &random) ? Double.random(in: ToDoItem.timestampRange, using: &random) : nil)
        if Bool.random(using: &random) {
            item.location = Location(
                name: text(&random), address: Bool.random(using: &random) ? text(&random) : nil,
                coordinate: Bool.random(using: &random)
                    ? Coordinate(
                        latitude: Double.random(in: -90...90, using: &random),
                        longitude: [0, 1e-7, -179.999_999_9, 180].randomElement(using: &random)!)
                    : nil)
        }
        item.number = Int.random(in: 1...ToDoItem.largestNumber, using: &random)
        item.done = Bool.random(using: &random)
        return item
    }
}
