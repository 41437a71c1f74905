import Testing
@testable import ScanDetectors

/// Mobile or fixed line by the numbering plan, in any region libphonenumber describes.
struct PhoneLineKindTests {
    @Test(arguments: [
        ("+41791234567", PhoneLineKind.mobile), ("+41712345678", .fixedLine),  // Swiss 07x: 075–079 mobile, 071 St. Gallen
        ("+447911123456", .mobile), ("+442071234567", .fixedLine),
        ("+4915123456789", .mobile), ("+49301234567", .fixedLine),
        ("+33612345678", .mobile), ("+33142345678", .fixedLine),
        ("+32470123456", .mobile), ("+3242193160", .fixedLine),  // Belgian 4xx: 9 digits mobile, 8 Liège
        ("+5511912345678", .mobile), ("+819012345678", .mobile), ("+61412345678", .mobile), ("+61298765432", .fixedLine)
    ])
    func kindFromThePlan(_ number: String, _ kind: PhoneLineKind) {
        #expect(PhoneLineKind.of(e164: number) == kind, "\(number)")
    }

    @Test func plansThatCannotTellSayNothing() {
        #expect(PhoneLineKind.of(e164: "+12025550123") == nil, "the US gives mobiles and fixed lines the same ranges")
        #expect(PhoneLineKind.of(e164: "+4412") == nil, "too short for either")
        #expect(PhoneLineKind.of(e164: "+99912345") == nil, "no such calling code")
        #expect(PhoneLineKind.of(e164: "not a number") == nil)
    }
}
