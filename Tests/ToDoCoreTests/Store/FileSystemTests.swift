import Foundation
@testable import ToDoCore
import TestSupport
import XCTest

final class FileSystemTests: XCTestCase {
    func test_readFile_readsTheWholeFile_exactlyItsSize() throws {
        let directory = try TemporaryDirectory()
        for size in [0, 1, 4095, 4096, 100_003] {
            let path = directory.url.appendingPathComponent("f\(size)").path
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            XCTAssertEqual(try FileSystem.readFile(at: path), bytes, "size \(size)")
        }
        XCTAssertNil(try FileSystem.readFile(at: directory.url.appendingPathComponent("missing").path))
    }

    func test_readingInTwoHalves_givesTheFileAsReadInOneGo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("f").path
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        // Buffers smaller than the file, of its size, and larger: the file ends in the first half,
        // in the second, or fills both.
        for capacity in [1, 2, 3, 999, 1_000, 1_001, 1_999, 2_000, 2_001, 5_000] {
            var buffer = [UInt8](repeating: 0xEE, count: capacity)
            let (length, error) = buffer.withUnsafeMutableBufferPointer { FileSystem.readInTwoHalves(descriptor, $0, minimumBytes: 1) }
            XCTAssertEqual(error, 0)
            XCTAssertEqual(Array(buffer[..<length]), Array(bytes.prefix(capacity)), "capacity \(capacity)")
        }
        // And through `readFile`, at the size from which it reads in two halves.
        let large = (0..<Parallelism.readFileInTwoHalvesMinimumBytes + 3).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(large)))
        XCTAssertEqual(try FileSystem.readFile(at: path), large)
        XCTAssertEqual(try FileSystem.readOwnFile(at: path)?.bytes.array, large, "the list's own files, into memory of their own")
    }

    #if os(Linux)
    func test_readFile_readsOnPastTheSizeTheFileHadWhenOpened() throws {
        // Files in /proc report a size of 0 and still have contents: the same path as a file that
        // grew between being opened and being read.
        let expected = try XCTUnwrap(FileManager.default.contents(atPath: "/proc/self/mountinfo"))
        XCTAssertGreaterThan(expected.count, 64)
        let read = try XCTUnwrap(try FileSystem.readFile(at: "/proc/self/mountinfo"))
        // Read on in pieces well past the first buffer: the owned memory grows as arrays do.
        let grown = UnsafeOwnedBytes(capacity: 1)
        for piece in 0..<1_000 {
            grown.append(upTo: 100) { buffer in
                for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: piece &+ index) }
                return buffer.count
            }
        }
        XCTAssertEqual(grown.count, 100_000)
        XCTAssertEqual(grown.array, (0..<1_000).flatMap { piece in (0..<100).map { UInt8(truncatingIfNeeded: piece &+ $0) } })
        XCTAssertEqual(String(decoding: read, as: UTF8.self), String(decoding: expected, as: UTF8.self))
    }
    #endif
}
