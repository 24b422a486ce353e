-- Every change to a person's images or favourites is announced on the lumina_gallery channel (the
-- payload is the person's id, 'examples' when a public example changed, '*' after a TRUNCATE), delivered
-- when the transaction commits. API processes keep gallery listings in memory and drop them on these
-- notices, whichever process (API or worker) made the change: see modules/images/listing-cache.ts.
-- Repeated notices with the same payload in one transaction are delivered once.
CREATE OR REPLACE FUNCTION lumina_images_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('lumina_gallery', '*');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('lumina_gallery', OLD.user_id::text);
    IF OLD.is_example THEN
      PERFORM pg_notify('lumina_gallery', 'examples');
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('lumina_gallery', NEW.user_id::text);
    IF NEW.is_example THEN
      PERFORM pg_notify('lumina_gallery', 'examples');
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A favourite mark shows only in the listings of the person who made it.
CREATE OR REPLACE FUNCTION lumina_image_favorites_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('lumina_gallery', '*');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('lumina_gallery', OLD.user_id::text);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('lumina_gallery', NEW.user_id::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER images_gallery_changed AFTER INSERT OR UPDATE OR DELETE ON images
  FOR EACH ROW EXECUTE FUNCTION lumina_images_changed();
--> statement-breakpoint
CREATE TRIGGER images_gallery_truncated AFTER TRUNCATE ON images
  FOR EACH STATEMENT EXECUTE FUNCTION lumina_images_changed();
--> statement-breakpoint
CREATE TRIGGER image_favorites_gallery_changed AFTER INSERT OR UPDATE OR DELETE ON image_favorites
  FOR EACH ROW EXECUTE FUNCTION lumina_image_favorites_changed();
--> statement-breakpoint
CREATE TRIGGER image_favorites_gallery_truncated AFTER TRUNCATE ON image_favorites
  FOR EACH STATEMENT EXECUTE FUNCTION lumina_image_favorites_changed();
