-- The account's interface preferences, so they follow the player to any browser:
-- language ('auto' = from Accept-Language), piece style, and the move-list notation of
-- each game family ('auto' = the variant's usual display notation: WXF for Xiangqi,
-- western for Shogi, AISE for MiniShogi).
alter table account
    add column language text not null default 'auto',
    add column piece_style text not null default 'traditional',
    add column xiangqi_notation text not null default 'auto',
    add column shogi_notation text not null default 'auto',
    add constraint account_language_check check (language in ('auto', 'en', 'it')),
    add constraint account_piece_style_check check (piece_style in ('traditional', 'western')),
    add constraint account_xiangqi_notation_check
        check (xiangqi_notation in ('auto', 'wxf', 'iccs', 'fix', 'chinese')),
    add constraint account_shogi_notation_check
        check (shogi_notation in ('auto', 'western', 'aise', 'usi'));
