import { useRef, type KeyboardEvent } from 'react';
import { sr } from '@shared/texts/sr';
import { reportTexts } from '@shared/texts/reports';
import type { AdminTab } from '../hooks/use-admin-params';

const TABS: { id: AdminTab; label: string }[] = [
  { id: 'aukcije', label: sr.admin.tabAuctions },
  { id: 'korisnici', label: sr.admin.tabUsers },
  { id: 'prijave', label: reportTexts.tabReports },
  { id: 'dnevnik', label: reportTexts.tabLog },
];

export const tabId = (tab: AdminTab) => `admin-tab-${tab}`;
export const panelId = (tab: AdminTab) => `admin-panel-${tab}`;

/** 'Aukcije' | 'Korisnici' | 'Prijave' | 'Dnevnik' (WAI-ARIA tabs: arrow keys move between them). */
export function AdminTabs({ tab, onTab }: { tab: AdminTab; onTab: (tab: AdminTab) => void }) {
  const refs = useRef<Partial<Record<AdminTab, HTMLButtonElement | null>>>({});
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const i = TABS.findIndex((x) => x.id === tab);
    const next = TABS[(i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length].id;
    onTab(next);
    refs.current[next]?.focus();
  };
  return (
    <div className="admin-tabs" role="tablist" aria-label={sr.admin.sections} onKeyDown={onKeyDown}>
      {TABS.map((x) => (
        <button
          key={x.id}
          ref={(el) => {
            refs.current[x.id] = el;
          }}
          type="button"
          role="tab"
          id={tabId(x.id)}
          className="admin-tabs__tab"
          aria-selected={tab === x.id}
          aria-controls={panelId(x.id)}
          tabIndex={tab === x.id ? 0 : -1}
          onClick={() => tab !== x.id && onTab(x.id)}
        >
          {x.label}
        </button>
      ))}
    </div>
  );
}
