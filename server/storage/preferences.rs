//! The preferences stored on an account (the settings themselves are
//! `crate::domain::preferences`).

use sqlx::PgPool;

/// The stored names: language, piece style, Xiangqi notation, Shogi notation.
pub(crate) type PreferencesRow = (String, String, String, String);

/// The preferences of `account_id`.
pub(crate) async fn of_account(pool: &PgPool, account_id: i64) -> sqlx::Result<PreferencesRow> {
    sqlx::query_as(
        r#"select language, piece_style, xiangqi_notation, shogi_notation
           from account where account_id = $1"#,
    )
    .bind(account_id)
    .fetch_one(pool)
    .await
}

/// Changes the preferences given (`None` keeps one) → all of them.
pub(crate) async fn update(
    pool: &PgPool,
    account_id: i64,
    [language, piece_style, xiangqi_notation, shogi_notation]: [Option<&str>; 4],
) -> sqlx::Result<PreferencesRow> {
    sqlx::query_as(
        r#"update account set
               language = coalesce($2, language),
               piece_style = coalesce($3, piece_style),
               xiangqi_notation = coalesce($4, xiangqi_notation),
               shogi_notation = coalesce($5, shogi_notation)
           where account_id = $1
           returning language, piece_style, xiangqi_notation, shogi_notation"#,
    )
    .bind(account_id)
    .bind(language)
    .bind(piece_style)
    .bind(xiangqi_notation)
    .bind(shogi_notation)
    .fetch_one(pool)
    .await
}
