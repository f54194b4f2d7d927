//! The PostgreSQL 15 behaviours the reference observed, as unit tests of the lock-table model.

use super::*;

fn ins(name: &str, owner: &str) -> Stmt {
    Stmt::Insert {
        name: name.into(),
        owner: owner.into(),
        ttl: None,
    }
}

fn one(sql: &mut Sql, conn: u32, s: Stmt) -> Answer {
    let out = sql.execute(0, conn, s);
    out.into_iter()
        .find(|(c, _)| *c == conn)
        .map(|(_, a)| a)
        .expect("answered")
}

#[test]
fn duplicate_insert_is_23505_and_the_row_survives_its_owner() {
    let mut sql = Sql::default();
    assert_eq!(one(&mut sql, 1, ins("job", "a")).render(), "INSERT 0 1");
    assert_eq!(one(&mut sql, 2, ins("job", "b")).render(), "ERROR 23505");
    sql.disconnect(0, 1);
    assert_eq!(
        one(&mut sql, 2, ins("job", "b")).render(),
        "ERROR 23505",
        "a committed row outlives a crash"
    );
    assert_eq!(
        sql.fence_seq, 3,
        "nextval is consumed by failed inserts too"
    );
}

#[test]
fn owner_checked_delete_counts_rows() {
    let mut sql = Sql::default();
    one(&mut sql, 1, ins("job", "a"));
    let del = |o: &str| Stmt::Delete {
        name: "job".into(),
        owner: Some(o.into()),
        fence: None,
    };
    assert_eq!(one(&mut sql, 2, del("b")).render(), "DELETE 0");
    assert_eq!(one(&mut sql, 1, del("a")).render(), "DELETE 1");
}

#[test]
fn for_update_blocks_until_commit_and_nowait_fails() {
    let mut sql = Sql::default();
    one(&mut sql, 9, ins("job", "-"));
    one(&mut sql, 1, Stmt::Begin);
    assert_eq!(
        one(
            &mut sql,
            1,
            Stmt::SelectForUpdate {
                name: "job".into(),
                nowait: false
            }
        )
        .render(),
        "SELECT 1"
    );
    one(&mut sql, 2, Stmt::Begin);
    assert!(
        sql.execute(
            0,
            2,
            Stmt::SelectForUpdate {
                name: "job".into(),
                nowait: false
            }
        )
        .is_empty(),
        "B blocks"
    );
    one(&mut sql, 3, Stmt::Begin);
    assert_eq!(
        one(
            &mut sql,
            3,
            Stmt::SelectForUpdate {
                name: "job".into(),
                nowait: true
            }
        )
        .render(),
        "ERROR 55P03"
    );
    assert_eq!(
        one(&mut sql, 3, Stmt::Select { name: "job".into() }).render(),
        "ERROR 25P02"
    );
    assert_eq!(one(&mut sql, 3, Stmt::Commit).render(), "ROLLBACK");
    let out = sql.execute(0, 1, Stmt::Commit);
    assert_eq!(
        out.iter()
            .map(|(c, a)| (*c, a.render()))
            .collect::<Vec<_>>(),
        vec![(1, "COMMIT".to_string()), (2, "SELECT 1".to_string())]
    );
}

#[test]
fn disconnect_rolls_back_and_releases_the_row_lock() {
    let mut sql = Sql::default();
    one(&mut sql, 9, ins("job", "-"));
    one(&mut sql, 1, Stmt::Begin);
    one(
        &mut sql,
        1,
        Stmt::SelectForUpdate {
            name: "job".into(),
            nowait: false,
        },
    );
    one(&mut sql, 2, Stmt::Begin);
    assert!(sql
        .execute(
            0,
            2,
            Stmt::SelectForUpdate {
                name: "job".into(),
                nowait: false
            }
        )
        .is_empty());
    assert_eq!(
        sql.disconnect(0, 1),
        vec![(
            2,
            Answer::Ok {
                tag: "SELECT 1".into(),
                rows: sql.rows.values().cloned().collect()
            }
        )]
    );
}

#[test]
fn for_update_on_a_missing_row_locks_nothing() {
    let mut sql = Sql::default();
    for c in [1, 2] {
        one(&mut sql, c, Stmt::Begin);
        assert_eq!(
            one(
                &mut sql,
                c,
                Stmt::SelectForUpdate {
                    name: "none".into(),
                    nowait: false
                }
            )
            .render(),
            "SELECT 0"
        );
    }
}

#[test]
fn concurrent_insert_waits_for_the_inserting_transaction() {
    let mut sql = Sql::default();
    one(&mut sql, 1, Stmt::Begin);
    one(&mut sql, 1, ins("job", "a"));
    assert!(
        sql.execute(0, 2, ins("job", "b")).is_empty(),
        "waits on the uncommitted key"
    );
    assert_eq!(
        one(&mut sql, 3, Stmt::Select { name: "job".into() }).render(),
        "SELECT 0",
        "others see the committed state"
    );
    let out = sql.execute(0, 1, Stmt::Rollback);
    assert_eq!(out[0], (1, Answer::ok("ROLLBACK")));
    assert_eq!(out[1].0, 2);
    assert_eq!(
        out[1].1.render(),
        "INSERT 0 1",
        "after the rollback B's insert succeeds"
    );
}

#[test]
fn takeover_only_after_expiry_with_a_new_fence() {
    let mut sql = Sql::default();
    sql.execute(
        0,
        1,
        Stmt::Insert {
            name: "job".into(),
            owner: "a".into(),
            ttl: Some(100),
        },
    );
    let take = Stmt::TakeOver {
        name: "job".into(),
        owner: "b".into(),
        ttl: 100,
    };
    assert_eq!(sql.execute(50, 2, take.clone())[0].1.render(), "UPDATE 0");
    let out = sql.execute(101, 2, take);
    assert_eq!(out[0].1.render(), "UPDATE 1");
    assert_eq!(sql.rows["job"].fence, 2);
}
