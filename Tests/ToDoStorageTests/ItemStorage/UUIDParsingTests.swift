import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

/// `UUID(canonical:)` reads eight digits at a time; it must agree with reading them one by one.
final class UUIDParsingTests: XCTestCase {
    func test_readsRandomIdsInEitherCase_asFoundationDoes() {
        var random = SeededGenerator(seed: 0x0BAD_1D)
        for _ in 0..<2_000 {
            let id = UUID(
                uuid: (0..<16).reduce(into: UUID().uuid) { uuid, index in
                    withUnsafeMutableBytes(of: &uuid) { $0[index] = UInt8.random(in: 0...255, using: &random) }
                })
            let upper = id.uuidString
            let lower = upper.lowercased()
            let mixed = String(upper.map { Bool.random(using: &random) ? Character($0.lowercased()) : $0 })
            XCTAssertEqual(UUID(canonical: upper), id)
            XCTAssertEqual(UUID(canonical: lower), id)
            XCTAssertEqual(UUID(canonical: mixed), id)
            XCTAssertEqual(parse(upper, upperCaseOnly: true), id)
            XCTAssertEqual(parse(mixed, upperCaseOnly: true), mixed == upper ? id : nil, mixed)
        }
    }

    func test_refusesAnyOtherByteAtAnyPlace_asAReaderOfOneDigitAtATimeWould() {
        let valid = Array("09AFaf3C-1D2E-4B5A-4C6D-8E7F0A1B2C3D".utf8)
        let replacements: [UInt8] = Array("/:@G`gF9f0- ".utf8) + [0x00, 0x7F, 0x80, 0xC6, 0xFF]
        for position in valid.indices {
            for byte in replacements {
                var text = valid
                text[position] = byte
                for upperCaseOnly in [false, true] {
                    let parsed = text.withUnsafeBufferPointer { UUID(canonical: $0, upperCaseOnly: upperCaseOnly) }
                    XCTAssertEqual(
                        parsed, reference(text, upperCaseOnly: upperCaseOnly),
                        "byte \(byte) at \(position), upper case only: \(upperCaseOnly)")
                }
            }
        }
        XCTAssertNil(parse(String(decoding: valid.dropLast(), as: UTF8.self), upperCaseOnly: false))
    }

    private func parse(_ text: String, upperCaseOnly: Bool) -> UUID? {
        Array(text.utf8).withUnsafeBufferPointer { UUID(canonical: $0, upperCaseOnly: upperCaseOnly) }
    }

    /// The canonical form read digit by digit.
    private func reference(_ text: [UInt8], upperCaseOnly: Bool) -> UUID? {
        guard text.count == 36 else { return nil }
        var digits: [UInt8] = []
        for (index, byte) in text.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digits.append(byte - UInt8(ascii: "A") + 10)
            case UInt8(ascii: "a")...UInt8(ascii: "f") where !upperCaseOnly:
                digits.append(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        var uuid = UUID().uuid
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for index in 0..<16 { bytes[index] = digits[2 * index] << 4 | digits[2 * index + 1] }
        }
        return UUID(uuid: uuid)
    }
}
