-- An application's cover image (docs/applications.md, Cover image): the hash of its file under
-- app-icons/{application_id}/ on the CDN; activity and game invites fall back to it.
ALTER TABLE applications ADD COLUMN cover_image TEXT;
