// The Foundation todo builds on, for every module above this one: FoundationEssentials where there
// is one (Linux: no ICU, a tenth of the binary), else the whole Foundation (macOS). Files of this
// module import it themselves (an import reaches only the modules that import this one).
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
