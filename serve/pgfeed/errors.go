package pgfeed

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// orTrigger is the way out for users who cannot change the server.
const orTrigger = "; or follow the table with triggers instead (InstallTrigger and WatchNotify; sitemap serve --install-trigger, then --feed notify)"

// errWalLevel says logical decoding is off on the server.
func errWalLevel(current string) error {
	return fmt.Errorf("pgfeed: the server does not allow logical decoding: set wal_level = logical in postgresql.conf and restart PostgreSQL (current: %s)%s", current, orTrigger)
}

// errNoReplication says the role may not open a replication connection.
func errNoReplication(role string) error {
	return fmt.Errorf("pgfeed: role %s may not read the server's changes: as a superuser, run ALTER ROLE %s REPLICATION%s",
		role, quoteRole(role), orTrigger)
}

// errSlotsFull says every replication slot of the server is taken.
func errSlotsFull(max string) error {
	return fmt.Errorf("pgfeed: all replication slots of the server are in use (max_replication_slots = %s): drop those no longer used (SELECT slot_name, active FROM pg_replication_slots) or raise max_replication_slots in postgresql.conf and restart PostgreSQL", max)
}

// errSendersFull says every WAL sender of the server is taken.
func errSendersFull(max string) error {
	return fmt.Errorf("pgfeed: all WAL senders of the server are in use (max_wal_senders = %s): raise max_wal_senders in postgresql.conf and restart PostgreSQL, or stop a replication client (SELECT * FROM pg_stat_replication)", max)
}

// errCreatePublication says CREATE PUBLICATION was refused.
func errCreatePublication(pub string, t *target, role string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42501" { // insufficient_privilege
		return fmt.Errorf("pgfeed: role %s may not create publication %s (%s): CREATE PUBLICATION needs ownership of table %s, which role %s owns, and CREATE on the database; have %s run CREATE PUBLICATION %s FOR TABLE %s, or run the feed as %s",
			role, pub, pe.Message, t, t.owner, t.owner, pub, t.quoted(), t.owner)
	}
	return fmt.Errorf("pgfeed: creating publication %s of %s: %w", pub, t, err)
}

// errNoPublication says the publication is missing and may not be created.
func errNoPublication(pub string, t *target) error {
	return fmt.Errorf("pgfeed: publication %s does not exist: have the owner of %s (role %s) run CREATE PUBLICATION %s FOR TABLE %s, or let the feed create it (Options.Create)",
		pub, t, t.owner, pub, t.quoted())
}

// errNoIdentity says publishing the table would break its writers.
func errNoIdentity(t *target) error {
	return fmt.Errorf("pgfeed: table %s has no replica identity (no primary key), and once published PostgreSQL would refuse its UPDATEs and DELETEs: run ALTER TABLE %s REPLICA IDENTITY FULL (or add a primary key) first%s",
		t, t.quoted(), orTrigger)
}

// replicationError says what to do about an error of the replication
// connection: opening it, creating the slot, starting the stream. settings
// gives the value of a server setting ("" when unknown).
func replicationError(err error, role string, settings func(string) string) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return fmt.Errorf("pgfeed: replication connection: %w", err)
	}
	switch {
	case pe.Code == "53400" && strings.Contains(pe.Message, "replication slots"): // configuration_limit_exceeded
		return errSlotsFull(settings("max_replication_slots"))
	case pe.Code == "53300" && strings.Contains(pe.Message, "max_wal_senders"): // too_many_connections
		return errSendersFull(settings("max_wal_senders"))
	case pe.Code == "55000" && strings.Contains(pe.Message, "wal_level"): // object_not_in_prerequisite_state
		return errWalLevel(settings("wal_level"))
	case pe.Code == "55000" && strings.Contains(pe.Message, "max_replication_slots"):
		return errSlotsFull(settings("max_replication_slots"))
	case pe.Code == "42501" || pe.Code == "28000": // insufficient_privilege, invalid_authorization_specification
		if strings.Contains(pe.Message, "replication") || strings.Contains(pe.Message, "WAL sender") || strings.Contains(pe.Message, "walsender") {
			return errNoReplication(role)
		}
	}
	return fmt.Errorf("pgfeed: replication connection: %w", err)
}

// quoteRole is a role's name as ALTER ROLE takes it.
func quoteRole(r string) string {
	for _, c := range r {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return `"` + strings.ReplaceAll(r, `"`, `""`) + `"`
		}
	}
	return r
}
