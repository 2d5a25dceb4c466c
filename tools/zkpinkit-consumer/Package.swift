// swift-tools-version:6.0
// An app's view of ZKPin: depends on the repository by URL and version, as an app adds a
// release (tools/zkpinkit-test passes a file:// clone and the version it tagged there), and
// imports ZKPinKit alone.
import Foundation
import PackageDescription

let environment = ProcessInfo.processInfo.environment
let package = Package(
    name: "zkpinkit-consumer",
    dependencies: [
        .package(
            url: environment["ZKPIN_KIT_URL"] ?? "https://github.com/zkpin/zkpin",
            exact: Version(environment["ZKPIN_KIT_VERSION"] ?? "1.0.0")!)
    ],
    targets: [
        .executableTarget(name: "zkpinkit-consumer", dependencies: [.product(name: "ZKPinKit", package: "zkpin")]),
        // The test vectors through the same build of the client's crypto (not part of an app).
        .executableTarget(name: "zkpinkit-vectors", dependencies: [.product(name: "ZKPinVectors", package: "zkpin")]),
    ]
)
