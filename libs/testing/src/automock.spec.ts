import { automock } from './automock';

class Base {
  inherited(): string {
    return 'real';
  }
}

class Repository extends Base {
  readonly field = 'not a method';
  find(id: string): Promise<string> {
    return Promise.resolve(id);
  }
  get computed(): number {
    return 1;
  }
}

describe('automock', () => {
  it('mocks every method of the class and its parents, and nothing else', () => {
    const repo = automock(Repository);
    expect(Object.keys(repo).sort()).toEqual(['find', 'inherited']);
    repo.find.mockResolvedValue('stubbed');
    expect(repo.inherited()).toBeUndefined();
  });

  it('answers what the test set, and records calls', async () => {
    const repo = automock(Repository);
    repo.find.mockResolvedValue('stubbed');
    await expect(repo.find('x')).resolves.toBe('stubbed');
    expect(repo.find).toHaveBeenCalledWith('x');
  });
});
