// swift-tools-version:6.0
// ZKPin: zero-knowledge PIN authentication (M-Pin) in Swift. See README.md and DESIGN.md.
import Foundation
import PackageDescription

// Pairings in unoptimised code are about a hundred times slower, which would make every debug
// test run and every debug server login take minutes; the crypto modules are always optimised.
let optimizedEvenInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

// On x86-64 the field arithmetic is compiled for Haswell and later (BMI2's mulx frees the
// registers that mul ties up: about 12% fewer instructions per pairing). Every x86-64 server
// CPU since 2013 has it; ZKPIN_PORTABLE=1 builds for the baseline x86-64 instead.
#if arch(x86_64)
let fieldArithmeticCPU: [SwiftSetting] = ProcessInfo.processInfo.environment["ZKPIN_PORTABLE"] == "1"
    ? [] : [.unsafeFlags(["-target-cpu", "haswell"])]
#else
let fieldArithmeticCPU: [SwiftSetting] = []
#endif

let package = Package(
    name: "zkpin",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "zkpin", targets: ["zkpin"]),
        .executable(name: "zkpin-server", targets: ["zkpin-server"]),
        .library(name: "ZKPinMath", targets: ["ZKPinMath"]),
        .library(name: "ZKPinProtocol", targets: ["ZKPinProtocol"]),
        .library(name: "ZKPinWire", targets: ["ZKPinWire"]),
        .library(name: "ZKPinServer", targets: ["ZKPinServer"]),
        .library(name: "ZKPinClient", targets: ["ZKPinClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        // System libraries (Debian -dev packages; tools/test installs them when missing).
        .systemLibrary(name: "CGMP", providers: [.apt(["libgmp-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CQREncode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZBar", providers: [.apt(["libzbar-dev", "libpng-dev"])]),

        // Big integers, fields, curves, pairing.
        .target(name: "ZKPinMath", dependencies: ["CGMP"], swiftSettings: optimizedEvenInDebug + fieldArithmeticCPU),
        // M-Pin: hashing, secrets, client and server passes, PIN error, M-Pin Full, vector files.
        .target(name: "ZKPinProtocol", dependencies: ["ZKPinMath", "COpenSSL"], swiftSettings: optimizedEvenInDebug),
        // The JSON request and response types of spec/rps-api.md.
        .target(name: "ZKPinWire"),
        // The relying party, the trusted authorities, pages, mail, storage.
        .target(name: "ZKPinServer", dependencies: [
            "ZKPinProtocol", "ZKPinWire", "COpenSSL", "CQREncode",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Mustache", package: "swift-mustache"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ], resources: [.copy("Templates")]),
        // The person's side: payloads, registration, login, the local identity store.
        .target(name: "ZKPinClient", dependencies: [
            "ZKPinProtocol", "ZKPinWire", "COpenSSL", "CZBar", "CQREncode",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),

        .executableTarget(name: "zkpin", dependencies: [
            "ZKPinProtocol", "ZKPinClient", "COpenSSL",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "zkpin-server", dependencies: [
            "ZKPinServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // Test support: counts the heap allocations of one thread (the zero-allocation pairing test).
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .testTarget(name: "ZKPinMathTests", dependencies: ["ZKPinMath", "CAllocationCounter"]),
        .testTarget(name: "ZKPinProtocolTests", dependencies: ["ZKPinProtocol"]),
        .testTarget(name: "ZKPinWireTests", dependencies: ["ZKPinWire"]),
        .testTarget(name: "ZKPinServerTests", dependencies: [
            "ZKPinServer", "ZKPinWire", "ZKPinProtocol",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            // The PostgreSQL tests create a database of their own per test.
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        .testTarget(name: "ZKPinClientTests", dependencies: ["ZKPinClient", "ZKPinServer", "ZKPinWire", "ZKPinProtocol"]),
    ]
)
