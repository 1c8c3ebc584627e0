import Fluent
import SQLKit

/// The points ledger (issue 18, docs/community.md): accounts with their balances, immutable transfers, the two
/// entries of each transfer, the company's earning rules and top-up key, its items, and spent top-up token ids.
///
/// The database itself keeps the ledger's promises: `CHECK (balance >= 0 OR kind = 'issuance')` on accounts (no
/// wallet and no revenue account below zero, whatever the code above does), `CHECK (amount > 0)` on transfers, one
/// transfer per company and idempotency key (`points_transfers_key`), one wallet per person, one issuance and one
/// revenue account per company, and one entry per account and sequence number.
struct CreatePointsLedger: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PointsAccountModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("kind", .string, .required)
            // The person of a wallet; NULL for the company's accounts and for the closed wallet of a deleted person.
            .field("user_id", .uuid)
            .field("balance", .int64, .required)
            .field("entry_count", .int64, .required)
            .field("created_at", .datetime, .required)
            .field("closed_at", .datetime)
            .constraint(.sql(.check(SQLRaw("balance >= 0 OR kind = 'issuance'"))))
            .unique(on: "user_id", name: "points_accounts_wallet")
            .create()
        try await database.schema(PointsTransferModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("from_account_id", .uuid, .required)
            .field("to_account_id", .uuid, .required)
            .field("amount", .int64, .required)
            .field("kind", .string, .required)
            .field("idempotency_key", .string, .required)
            .field("fingerprint", .string)
            .field("details", .string)
            .field("reverses_id", .uuid)
            .field("created_at", .datetime, .required)
            .constraint(.sql(.check(SQLRaw("amount > 0"))))
            .unique(on: "company_id", "idempotency_key", name: "points_transfers_key")
            .create()
        try await database.schema(PointsEntryModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("account_id", .uuid, .required)
            .field("seq", .int64, .required)
            .field("transfer_id", .uuid, .required)
            .field("amount", .int64, .required)
            .field("balance_after", .int64, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "account_id", "seq", name: "points_entries_account_seq")
            .create()
        try await database.schema(PointsSettingsModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("workout_completed", .int, .required)
            .field("mission_completed", .int, .required)
            .field("challenge_result", .int, .required)
            .field("hs256_secret", .string)
            .field("ed25519_public_key", .string)
            .field("updated_at", .datetime, .required)
            .unique(on: "company_id", name: "points_settings_company")
            .create()
        try await database.schema(PointsItemModel.schema)
            .id()
            .field("company_id", .uuid, .required, .references(CompanyModel.schema, .id, onDelete: .cascade))
            .field("name", .string, .required)
            .field("price", .int, .required)
            .field("active", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .constraint(.sql(.check(SQLRaw("price > 0"))))
            .create()
        guard let sql = database as? any SQLDatabase else { return }
        // One issuance and one revenue account per company; wallets (open or closed) are not counted here.
        try await sql.raw(
            """
            CREATE UNIQUE INDEX points_accounts_company ON points_accounts (company_id, kind)
            WHERE kind <> 'wallet'
            """
        ).run()
        try await sql.create(index: "points_transfers_from").on(PointsTransferModel.schema)
            .column("from_account_id").run()
        try await sql.create(index: "points_transfers_to").on(PointsTransferModel.schema)
            .column("to_account_id").run()
        try await sql.create(index: "points_items_company").on(PointsItemModel.schema)
            .column("company_id").column("active").column("name").run()
    }

    func revert(on database: any Database) async throws {
        for schema in [
            PointsItemModel.schema, PointsSettingsModel.schema, PointsEntryModel.schema, PointsTransferModel.schema,
            PointsAccountModel.schema,
        ] {
            try await database.schema(schema).delete()
        }
    }
}
