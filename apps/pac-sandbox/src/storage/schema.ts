/** Idempotent DDL, run at every start. */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS sat_certificate (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  certificate_der bytea NOT NULL,
  private_key_pem text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS registrations (
  rfc text PRIMARY KEY,
  type_user text NOT NULL,
  status text NOT NULL,
  certificate_der bytea,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS stamps (
  xml_hash text PRIMARY KEY,
  uuid text NOT NULL UNIQUE,
  emisor_rfc text NOT NULL,
  receptor_rfc text NOT NULL,
  total text NOT NULL,
  tipo_de_comprobante text NOT NULL,
  global boolean NOT NULL,
  fecha_timbrado text NOT NULL,
  stamped_at timestamptz NOT NULL,
  xml text NOT NULL
);
-- Added after the first release: databases created before it get the column here.
ALTER TABLE stamps ADD COLUMN IF NOT EXISTS receiver_answer text;
CREATE TABLE IF NOT EXISTS relations (
  uuid text NOT NULL REFERENCES stamps (uuid),
  related_uuid text NOT NULL,
  tipo_relacion text NOT NULL,
  PRIMARY KEY (uuid, related_uuid, tipo_relacion)
);
CREATE INDEX IF NOT EXISTS relations_related_uuid ON relations (related_uuid);
CREATE TABLE IF NOT EXISTS cancellations (
  uuid text PRIMARY KEY REFERENCES stamps (uuid),
  status text NOT NULL,
  motivo text NOT NULL,
  folio_sustitucion text,
  requires_acceptance boolean NOT NULL,
  request_count integer NOT NULL,
  requested_at timestamptz NOT NULL,
  resolved_at timestamptz,
  acuse text NOT NULL,
  acuse_fecha text NOT NULL
);
`;
