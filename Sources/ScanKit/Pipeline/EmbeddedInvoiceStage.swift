import ScanEInvoice
import ScanModel

/// After parsing: a PDF that embeds a structured invoice (Factur-X, ZUGFeRD, XRechnung CII) gives the receipt's
/// fields from it, exact where the page's text is read, and says so in an `e-invoice` finding. One that cannot be
/// read leaves the fields read from the text, with an `e-invoice-unreadable` warning.
enum EmbeddedInvoiceStage {
    static let code = "e-invoice"

    static func apply(attachments: [(name: String, bytes: [UInt8])], to doc: inout Document) {
        guard !attachments.isEmpty else { return }
        do {
            guard let invoice = try EInvoice.first(in: attachments) else { return }
            let kind = invoice.typeCode.map { ", document type \($0)" } ?? ""
            take(invoice.receipt, into: &doc)
            doc.warnings.append(Finding(
                code: code,
                message: "the receipt's fields come from the embedded invoice \(invoice.attachment) (\(invoice.syntax)"
                    + "\(kind)), not from the page's text"))
        } catch {
            doc.warnings.append(Finding(code: "e-invoice-unreadable", message: "\(error); the fields are the text's"))
        }
    }

    /// A document read again from its JSON keeps the fields its embedded invoice gave.
    static func keep(from earlier: Document, in doc: inout Document) {
        guard earlier.warnings.contains(where: { $0.code == code }), let receipt = earlier.receipt else { return }
        take(receipt, into: &doc)
    }

    private static func take(_ receipt: Receipt, into doc: inout Document) {
        doc.receipt = receipt
        doc.businessCard = nil
        doc.documentType = DocumentType(label: .receipt, confidence: 1)
        // The text parser's findings were about the fields it read, which are gone.
        doc.warnings.removeAll { $0.code.hasPrefix("receipt-") || $0.code.hasPrefix("card-") }
    }
}
