// swift-tools-version:6.0
// ZKPin: zero-knowledge PIN authentication (M-Pin) in Swift. See README.md and DESIGN.md.
import Foundation
import PackageDescription

// SwiftPM refuses unsafe flags in a package that another one depends on by URL (an app adding
// ZKPinKit). A checkout of this package as such a dependency (SwiftPM's .build/checkouts/...,
// Xcode's SourcePackages/checkouts/...) therefore sets none: the app's optimisation level and
// the portable Swift field products. ZKPIN_AS_DEPENDENCY=1 builds the same way here.
let builtAsDependency =
    Context.packageDirectory.contains("/checkouts/")
    || ProcessInfo.processInfo.environment["ZKPIN_AS_DEPENDENCY"] == "1"

// Pairings in unoptimised code are about a hundred times slower, which would make every debug
// test run and every debug server login take minutes; the crypto modules are always optimised.
let optimizedEvenInDebug: [SwiftSetting] =
    builtAsDependency ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]

// On x86-64 the field arithmetic uses BMI2's mulx and ADX's adcx/adox (Broadwell, 2014, and
// later): the Montgomery products are assembly (CFieldArithmetic, ZKPIN_ADX) and the Swift code
// around them is compiled for Broadwell. ZKPIN_PORTABLE=1 builds for the baseline x86-64 with
// the Swift products instead, as a dependency checkout always does.
#if arch(x86_64)
    let fieldArithmeticCPU: [SwiftSetting] =
        builtAsDependency || ProcessInfo.processInfo.environment["ZKPIN_PORTABLE"] == "1"
        ? [] : [.unsafeFlags(["-target-cpu", "broadwell"]), .define("ZKPIN_ADX")]
#else
    let fieldArithmeticCPU: [SwiftSetting] = []
#endif

// ZKPinKit's targets (the client, the protocol, the field arithmetic, swift-crypto) run on iOS 16
// and macOS 13; the server's and the CLI's libraries (Hummingbird, swift-configuration, ...) ask
// for newer systems, and so does a build of this package on its own.
let platforms: [SupportedPlatform] = builtAsDependency ? [.iOS(.v16), .macOS(.v13)] : [.iOS(.v16), .macOS(.v14)]

let package = Package(
    name: "zkpin",
    platforms: platforms,
    products: [
        .executable(name: "zkpin", targets: ["zkpin"]),
        .executable(name: "zkpin-server", targets: ["zkpin-server"]),
        .library(name: "ZKPinMath", targets: ["ZKPinMath"]),
        .library(name: "ZKPinProtocol", targets: ["ZKPinProtocol"]),
        .library(name: "ZKPinWire", targets: ["ZKPinWire"]),
        .library(name: "ZKPinServer", targets: ["ZKPinServer"]),
        .library(name: "ZKPinClient", targets: ["ZKPinClient"]),
        // The authenticator for an app (iPhone, Mac, Linux): no GMP, NIO, SQLite or zbar inside.
        .library(name: "ZKPinKit", targets: ["ZKPinKit"]),
        // For the one-process side-by-side with mcl that tools/side-by-side builds outside the repository.
        .library(name: "ZKPinBenchmark", targets: ["ZKPinBenchmark"]),
        // For tools/zkpinkit-test: the test vectors through ZKPinKit's build of the crypto.
        .library(name: "ZKPinVectors", targets: ["ZKPinVectors"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // 1.16: LogHandler.log(event:) (the JSON log handler).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        // Serve options from a JSON file and ZKPIN_* environment variables (default JSON trait only).
        .package(url: "https://github.com/apple/swift-configuration", from: "1.0.0"),
        // ID tokens of the OpenID Connect provider: ES256 signing, JWKS (on swift-crypto).
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.0.0"),
        // RSA key generation for RS256 ID tokens (already in the graph through jwt-kit).
        .package(url: "https://github.com/apple/swift-crypto", "4.1.0"..<"6.0.0")
    ],
    targets: [
        // System libraries (Debian -dev packages; tools/test installs them when missing).
        .systemLibrary(name: "CGMP", providers: [.apt(["libgmp-dev"])]),
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CQREncode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZBar", providers: [.apt(["libzbar-dev", "libpng-dev"])]),

        // Big integers, fields, curves, pairing.
        // Field and tower kernels in x86-64 assembly and C (include/field_arithmetic.h, generated
        // by tools/gen-curves from curves/*.json): a C target, so the build tracks the header.
        .target(name: "CFieldArithmetic"),
        // No GMP (an app's client path has none): BigInt is pure Swift, inversion Fermat's
        // unless ZKPinMathGMP installs GMP's Euclid for the blinded one.
        .target(name: "ZKPinMath", dependencies: ["CFieldArithmetic"], swiftSettings: optimizedEvenInDebug + fieldArithmeticCPU),
        // GMP for the server, the command and the tests: the fast blinded field inversion
        // (GMPFieldInversion.install()) and GMPInteger, the oracle BigInt is tested against.
        .target(name: "ZKPinMathGMP", dependencies: ["ZKPinMath", "CGMP"], swiftSettings: optimizedEvenInDebug),
        // M-Pin: hashing, secrets, client and server passes, PIN error, M-Pin Full, vector files.
        .target(
            name: "ZKPinProtocol",
            dependencies: ["ZKPinMath", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: optimizedEvenInDebug),
        // The JSON request and response types of spec/rps-api.md.
        .target(name: "ZKPinWire"),
        // The relying party, the trusted authorities, pages, mail, storage.
        .target(
            name: "ZKPinServer",
            dependencies: [
                "ZKPinMath", "ZKPinProtocol", "ZKPinWire", "CQREncode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                // Web Push: P-256 key agreement, HKDF and AES-GCM of RFC 8291, the VAPID key.
                .product(name: "Crypto", package: "swift-crypto")
            ], resources: [.copy("Templates")]),
        // The person's side without the command's dependencies: payloads, registration, login,
        // approvals, PIN change over any HTTPTransport and any IdentityStore (ZKPinKit's base).
        .target(name: "ZKPinClientCore", dependencies: ["ZKPinProtocol", "ZKPinWire"]),
        // The app's side: an async API over ZKPinClientCore, URLSession, a file or Keychain store.
        .target(name: "ZKPinKit", dependencies: ["ZKPinClientCore", "ZKPinWire"]),
        // The command's side: the SQLite identity store, AsyncHTTPClient, QR images, the terminal.
        .target(
            name: "ZKPinClient",
            dependencies: [
                "ZKPinClientCore", "ZKPinWire", "CZBar",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift")
            ]),

        // Tooling, kept out of the product libraries: the vector files and their checker, the
        // benchmark (with its ECDSA baseline) and the load driver. The `zkpin` executable links them.
        .target(name: "ZKPinVectors", dependencies: ["ZKPinMath", "ZKPinProtocol"], swiftSettings: optimizedEvenInDebug),
        .target(name: "ZKPinBenchmark", dependencies: ["ZKPinMath", "ZKPinProtocol", "COpenSSL"], swiftSettings: optimizedEvenInDebug),
        .target(
            name: "ZKPinLoad",
            dependencies: [
                "ZKPinProtocol", "ZKPinWire", "ZKPinClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio")
            ]),

        .executableTarget(
            name: "zkpin",
            dependencies: [
                "ZKPinMath", "ZKPinMathGMP", "ZKPinProtocol", "ZKPinWire", "ZKPinClient", "ZKPinVectors", "ZKPinBenchmark", "ZKPinLoad",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]),
        .executableTarget(
            name: "zkpin-server",
            dependencies: [
                "ZKPinMath", "ZKPinMathGMP", "ZKPinProtocol", "ZKPinServer", "ZKPinWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ]),

        // Test support: counts the heap allocations of one thread (the zero-allocation pairing test).
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        // Test support: seeded randomness whose seed a failing test prints.
        .target(name: "ZKPinTestSupport", path: "Tests/ZKPinTestSupport"),
        .testTarget(name: "ZKPinMathTests", dependencies: ["ZKPinMath", "ZKPinMathGMP", "CAllocationCounter", "ZKPinTestSupport"]),
        .testTarget(name: "ZKPinProtocolTests", dependencies: ["ZKPinMath", "ZKPinProtocol", "ZKPinVectors", "ZKPinTestSupport"]),
        .testTarget(name: "ZKPinWireTests", dependencies: ["ZKPinWire"]),
        .testTarget(name: "ZKPinKitTests", dependencies: ["ZKPinKit", "ZKPinClientCore", "ZKPinWire"]),
        .testTarget(
            name: "ZKPinServerTests",
            dependencies: [
                "ZKPinServer", "ZKPinWire", "ZKPinProtocol", "ZKPinTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The event-loop executor's test runs tasks on a loop group of its own.
                .product(name: "NIOPosix", package: "swift-nio"),
                // The PostgreSQL tests create a database of their own per test.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The migration tests write a database as an older version left it.
                .product(name: "GRDB", package: "GRDB.swift"),
                // The Web Push tests make receivers' P-256 keys and the RFC 8291 sender key.
                .product(name: "Crypto", package: "swift-crypto"),
                // The logout tests sign the forged tokens a site's check must refuse.
                .product(name: "JWTKit", package: "jwt-kit")
            ],
            // The schema as the released versions left it, read by SchemaListTests.
            exclude: ["Store/SchemaFixtures"]),
        .testTarget(
            name: "ZKPinClientTests",
            dependencies: [
                "ZKPinClient", "ZKPinClientCore", "ZKPinLoad", "ZKPinWire", "ZKPinProtocol", "ZKPinTestSupport", "CQREncode", "CZBar",
                // A CIBA site's forms with Basic auth, which the client's JSON transport does not send.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio")
            ])
    ]
)

// ZKPIN_MATH_ONLY=1 narrows the package to the field, curve and pairing code and its tests:
// tools/test runs the portable field path's tests (ZKPIN_PORTABLE=1, its own build folder)
// that way, without building the server's dependencies a second time.
if ProcessInfo.processInfo.environment["ZKPIN_MATH_ONLY"] == "1" {
    let kept: Set<String> = ["CGMP", "CFieldArithmetic", "ZKPinMath", "ZKPinMathGMP", "CAllocationCounter", "ZKPinTestSupport", "ZKPinMathTests"]
    package.targets = package.targets.filter { kept.contains($0.name) }
    package.products = package.products.filter { $0.name == "ZKPinMath" }
    package.dependencies = []
}
