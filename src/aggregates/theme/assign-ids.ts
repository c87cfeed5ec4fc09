import type { Edit, SectionInput } from './edits.ts'

// Ids the caller left out are generated before deciding, so the decider itself stays pure.

function sectionWithIds(section: SectionInput, newId: (prefix: string) => string): SectionInput {
  return {
    ...section,
    id: section.id ?? newId('sec'),
    ...(section.blocks ? { blocks: section.blocks.map((b) => ({ ...b, id: b.id ?? newId('blk') })) } : {}),
  }
}

export function assignIds(operations: Edit[], newId: (prefix: string) => string): Edit[] {
  return operations.map((op) => {
    switch (op.op) {
      case 'createPage':
        return {
          ...op,
          page: {
            ...op.page,
            id: op.page.id ?? newId('page'),
            layout: op.page.layout.map((s) => sectionWithIds(s, newId)),
          },
        }
      case 'updatePage':
        return op.changes.layout
          ? { ...op, changes: { ...op.changes, layout: op.changes.layout.map((s) => sectionWithIds(s, newId)) } }
          : op
      case 'createSection':
        return { ...op, section: sectionWithIds(op.section, newId) }
      case 'updateSection':
        return op.blocks ? { ...op, blocks: op.blocks.map((b) => ({ ...b, id: b.id ?? newId('blk') })) } : op
      default:
        return op
    }
  })
}
