import Hummingbird
import ZKPinWire

// The wire types answer through the context's response encoder (JSON, no-store). ZKPinWire is
// shared with the client and knows nothing of Hummingbird, so the conformances live here.
extension AccessNumberResponse: ResponseEncodable {}
extension ApprovalsResponse: ResponseEncodable {}
extension ApprovalAnswerResponse: ResponseEncodable {}
extension AccessResponse: ResponseEncodable {}
extension AuthenticateResponse: ResponseEncodable {}
extension CodeStatusResponse: ResponseEncodable {}
extension ClientSecretResponse: ResponseEncodable {}
extension ClientSettings: ResponseEncodable {}
extension Pass1Response: ResponseEncodable {}
extension Pass2Response: ResponseEncodable {}
extension OTPResponse: ResponseEncodable {}
extension OTPVerifyResponse: ResponseEncodable {}
extension RegisterResponse: ResponseEncodable {}
extension ServerSecretResponse: ResponseEncodable {}
extension ServerStatus: ResponseEncodable {}
extension ServiceInfo: ResponseEncodable {}
extension SignatureResponse: ResponseEncodable {}
extension TimePermitResponse: ResponseEncodable {}
