import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EXAMPLE_CATEGORY_MAX, type ImageView } from '@lumina/contracts';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { useDeleteImage } from '@/lib/images/image-mutations';
import { useExampleCategories } from '@/lib/examples/example-categories';
import { usePublishExample } from '../api/publish-example';
import { Alert } from '@/components/ui/alert';

const secondary =
  'rounded-xl border border-zinc-300 px-4 py-2 text-sm font-semibold hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800';

export function ConfirmDeleteDialog({
  image,
  open,
  onClose,
  onDeleted,
}: {
  image: ImageView;
  open: boolean;
  onClose: () => void;
  onDeleted?: (image: ImageView) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const remove = useDeleteImage();
  return (
    <Modal open={open} onClose={onClose} labelledBy={id} className="max-w-sm p-6">
      <h2 id={id} className="text-lg font-semibold">
        {t('images.delete.title')}
      </h2>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('images.delete.body')}</p>
      {remove.error && (
        <Alert tone="error" inline className="mt-3">
          {remove.error.message}
        </Alert>
      )}
      <div className="mt-6 flex justify-end gap-2">
        <button type="button" className={secondary} onClick={onClose} data-autofocus>
          {t('images.delete.cancel')}
        </button>
        <button
          type="button"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(image.id, {
              onSuccess: () => {
                onClose();
                onDeleted?.(image);
              },
            })
          }
          className="inline-flex items-center gap-2 rounded-xl bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60"
        >
          {remove.isPending && <Spinner className="size-4 border-white/40 border-t-white" />}
          {t('images.delete.confirm')}
        </button>
      </div>
    </Modal>
  );
}

export function PublishDialog({
  image,
  open,
  onClose,
}: {
  image: ImageView;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [category, setCategory] = useState(image.category ?? '');
  const categories = useExampleCategories();
  const publish = usePublishExample();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    publish.mutate({ id: image.id, category: category.trim() }, { onSuccess: onClose });
  };
  return (
    <Modal open={open} onClose={onClose} labelledBy={id} className="max-w-md p-6">
      <form onSubmit={submit}>
        <h2 id={id} className="text-lg font-semibold">
          {t('images.publish.title')}
        </h2>
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('images.publish.body')}</p>
        <label htmlFor={`${id}-category`} className="mt-4 mb-1.5 block text-sm font-semibold">
          {t('images.publish.category')}
        </label>
        <input
          id={`${id}-category`}
          data-autofocus
          required
          maxLength={EXAMPLE_CATEGORY_MAX}
          list={`${id}-categories`}
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          placeholder={t('images.publish.placeholder')}
          className="block w-full rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-zinc-700 dark:bg-zinc-950"
        />
        <datalist id={`${id}-categories`}>
          {categories.data?.categories.map((c) => (
            <option key={c.name} value={c.name} />
          ))}
        </datalist>
        {publish.error && (
          <Alert tone="error" inline className="mt-2">
            {publish.error.message}
          </Alert>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className={secondary} onClick={onClose}>
            {t('images.publish.cancel')}
          </button>
          <button
            type="submit"
            disabled={publish.isPending || !category.trim()}
            className="inline-flex items-center gap-2 rounded-xl bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60 dark:bg-brand-500 dark:text-zinc-950"
          >
            {publish.isPending && <Spinner className="size-4" />}
            {t('images.publish.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
