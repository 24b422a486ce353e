import { useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronIcon } from '@/components/ui/icons';
import { percentAfterKey, percentAtPointer } from '../utils/slider';

/**
 * A before/after comparison: the original on the left of the divider, the result on the right. Drag
 * anywhere on the picture, or focus the handle and use the arrow keys, Page Up/Down, Home and End.
 */
export function BeforeAfter({
  before,
  after,
  width,
  height,
  initial = 50,
}: {
  before: string;
  after: string;
  /** The result's pixel size, for the box's aspect ratio. */
  width: number;
  height: number;
  initial?: number;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [value, setValue] = useState(initial);
  const [dragging, setDragging] = useState(false);

  function moveTo(clientX: number) {
    const rect = box.current?.getBoundingClientRect();
    if (rect) setValue(percentAtPointer(clientX, rect));
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    setDragging(true);
    moveTo(event.clientX);
    box.current?.querySelector<HTMLElement>('[role="slider"]')?.focus({ preventScroll: true });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const next = percentAfterKey(event.key, value, event.shiftKey);
    if (next === null) return;
    event.preventDefault();
    setValue(next);
  }

  // The two pictures stacked, "before" on top clipped to the slider's left; each with its corner tag.
  const picture = (which: 'before' | 'after', src: string, style?: CSSProperties) => (
    <img
      src={src}
      alt={t(`studio.result.${which}`)}
      data-testid={`compare-${which}`}
      draggable={false}
      className="absolute inset-0 size-full object-contain"
      style={style}
    />
  );
  const tag = (which: 'before' | 'after', corner: 'left-2' | 'right-2') => (
    <span
      className={`pointer-events-none absolute top-2 ${corner} rounded-full bg-zinc-950/70 px-2 py-0.5 text-[11px] font-semibold text-white`}
    >
      {t(`studio.result.${which}`)}
    </span>
  );
  return (
    <div
      ref={box}
      data-testid="before-after"
      onPointerDown={onPointerDown}
      onPointerMove={(e) => dragging && moveTo(e.clientX)}
      onPointerUp={() => setDragging(false)}
      onPointerCancel={() => setDragging(false)}
      className="relative mx-auto cursor-ew-resize touch-none overflow-hidden rounded-2xl bg-zinc-100 select-none dark:bg-zinc-800"
      style={{
        aspectRatio: `${Math.max(1, width)} / ${Math.max(1, height)}`,
        // As large as the column allows, but never taller than most of the screen.
        width: `min(100%, calc(70vh * ${(Math.max(1, width) / Math.max(1, height)).toFixed(4)}))`,
      }}
    >
      {picture('after', after)}
      {picture('before', before, { clipPath: `inset(0 ${100 - value}% 0 0)` })}
      {tag('before', 'left-2')}
      {tag('after', 'right-2')}
      <div
        className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow"
        style={{ left: `${value}%` }}
      >
        <div
          role="slider"
          tabIndex={0}
          aria-label={t('studio.result.compare')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
          aria-valuetext={t('studio.result.compareValue', { value })}
          aria-orientation="horizontal"
          onKeyDown={onKeyDown}
          className="pointer-events-auto absolute top-1/2 left-1/2 flex size-10 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full bg-white text-zinc-900 shadow-lg ring-1 ring-zinc-900/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
        >
          <ChevronIcon className="-mr-1 rotate-180" />
          <ChevronIcon className="-ml-1" />
        </div>
      </div>
    </div>
  );
}
