-- A game's result and reason as the server's enums name them (server/storage/endings.rs:
-- GameResult, GameReason; issue 16 §1). The result: 1-0, 0-1, 1/2-1/2, 0-0 (a
-- director's double forfeit) or the places of three to seven seats in seat order
-- (2-1-3). The reason: the rules crate's EndReason names, the Seven Kingdoms' ends and a
-- director's annulment. A new reason needs a migration that widens the list.
alter table game
    add constraint game_result_check
        check (result ~ '^(1-0|0-1|1/2-1/2|0-0|[1-7](-[1-7]){2,6})$'),
    add constraint game_reason_check check (reason in (
        'checkmate', 'stalemate', 'perpetual-check', 'perpetual-chase',
        'mutual-perpetual-check', 'mutual-perpetual-chase', 'sennichite',
        'repetition-initiator-loses', 'repetition-first-player-loses',
        'jishogi-count', 'jishogi', 'impasse-24', 'impasse-declaration',
        'move-limit-120', 'no-progress-30', 'move-limit-300', 'dead-position',
        'repetition', 'resignation', 'agreement', 'timeout',
        'timeout-insufficient-material', 'adjudication', 'forfeit', 'aborted',
        'hegemony-generals', 'hegemony-pieces', 'last-alliance', 'no-legal-moves',
        'annulled'
    ));
